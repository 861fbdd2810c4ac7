import Foundation
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

