import Foundation
import TestSupport
import Testing

/// The CLI end to end as a user runs it: the built executable, samples on standard input.
@Suite struct StdinRunTests {
    @Test func ndjsonOnStandardInputGivesTheExpectedEvents() throws {
        let samples = try String(contentsOfFile: fixture("walk.ndjson"), encoding: .utf8)
        let run = try runExecutable(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--events", "-", "--no-report"],
            stdin: samples)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("walker-1") } == [
            #"{"device":"walker-1","region":"daan-park","event":"enter","time":"2026-11-21T08:01:00Z","lat":25.03,"lon":121.534,"seq":1}"#,
            #"{"device":"walker-1","region":"daan-park","event":"exit","time":"2026-11-21T08:03:00Z","lat":25.025,"lon":121.534,"seq":2}"#,
        ])
        #expect(lines.filter { $0.contains("bus-17") } == [
            #"{"device":"bus-17","region":"taipei-main","event":"enter","time":"2026-11-21T08:01:00Z","lat":25.0478,"lon":121.5171,"seq":1}"#,
            #"{"device":"bus-17","region":"taipei-main","event":"exit","time":"2026-11-21T08:20:00Z","lat":25.034,"lon":121.5645,"seq":2}"#,
            #"{"device":"bus-17","region":"taipei-101","event":"enter","time":"2026-11-21T08:20:00Z","lat":25.034,"lon":121.5645,"seq":3}"#,
        ])
        #expect(run.err.contains("updates"))
    }

    /// Under ios an enter is confirmed 20 s after the crossing; when no later sample of the device comes, the end of
    /// input fires it. Its latency is timed from that end's arrival: it was timed from the clock's zero, and the
    /// report's latencies were the machine's uptime.
    @Test func eventsFiredAtTheEndOfInputHaveTheRunsLatency() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let regions = folder + "/one.geojson"
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"A","geometry":{"type":"Point","coordinates":[121.5,25.0]},"properties":{"radius":500}}]}"#
            .write(toFile: regions, atomically: true, encoding: .utf8)
        // "tail" crosses in at its last sample; "other" stays far away and ends the input 100 s later.
        let samples = [
            #"{"device":"tail","lat":25.009,"lon":121.5,"time":1795248000}"#,
            #"{"device":"other","lat":25.045,"lon":121.5,"time":1795248000}"#,
            #"{"device":"tail","lat":25.00225,"lon":121.5,"time":1795248100}"#,
            #"{"device":"other","lat":25.045,"lon":121.5,"time":1795248200}"#,
        ].joined(separator: "\n") + "\n"
        let report = folder + "/report.json"
        let run = try runExecutable(
            ["--source", "stdin", "--regions", regions, "--profile", "ios", "--delivery", "instant", "--events",
             folder + "/events.ndjson", "--report", report, "--quiet"],
            stdin: samples)
        #expect(run.status == 0, "\(run.err)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let events = try #require(json["events"] as? [String: Int])
        #expect(events["enter"] == 1)
        let wallMilliseconds = try #require(json["wallSeconds"] as? Double) * 1000
        let latency = try #require(json["latencyMs"] as? [String: Double])
        // The report rounds the run's seconds to the millisecond.
        #expect(try #require(latency["max"]) <= wallMilliseconds + 1, "\(latency), run \(wallMilliseconds) ms")
    }

    /// A broken first line makes an NDJSON stream read as CSV: the error says the format was detected, and how to
    /// choose it; chosen, the line is one bad line among the samples.
    @Test func aBrokenFirstLineSaysHowTheFormatWasDetected() throws {
        let samples = "oops\n" + #"{"device":"d1","lat":25.04,"lon":121.517,"time":"2026-11-21T08:00:00Z"}"# + "\n"
        let detected = try runExecutable(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--no-events", "--no-report"],
            stdin: samples)
        #expect(detected.status == 65)
        #expect(detected.err.contains("the format was detected from this first line"), "\(detected.err)")
        let chosen = try runExecutable(
            ["--source", "stdin:ndjson", "--regions", fixture("taipei-regions.geojson"), "--no-events", "--no-report"],
            stdin: samples)
        #expect(chosen.status == 0, "\(chosen.err)")
        #expect(chosen.err.contains("stdin:1"), "\(chosen.err)")
    }

    @Test func badLinesAreReportedAndSkippedOrFatalOnRequest() throws {
        let samples = try String(contentsOfFile: fixture("bad-lines.ndjson"), encoding: .utf8)
        let skipping = try runExecutable(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--events", "-", "--no-report"],
            stdin: samples)
        #expect(skipping.status == 0)
        #expect(skipping.err.contains("stdin:2"))
        #expect(skipping.err.contains("stdin:4"))
        let failing = try runExecutable(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--on-bad-input", "fail", "--events", "-",
             "--no-report"],
            stdin: samples)
        #expect(failing.status == 65)
        #expect(failing.err.contains("stdin:2"))
    }

    @Test func csvOnStandardInputIsDetectedFromItsHeader() throws {
        let samples = try String(contentsOfFile: fixture("walk.csv"), encoding: .utf8)
        let run = try runExecutable(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--events", "-", "--no-report", "--quiet"],
            stdin: samples)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.split(separator: "\n").map { $0.contains("\"event\":\"enter\"") ? "enter" : "exit" } == ["enter", "exit"])
        #expect(run.err.isEmpty)
    }
}

