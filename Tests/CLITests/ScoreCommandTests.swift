import Foundation
import TestSupport
import Testing
@testable import location_router

/// `location-router score`, `run --ground-truth` and `run --score` as a user runs them.
@Suite struct ScoreCommandTests {
    static let regions = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[121.5,25.0]},"properties":{"radius":100}}]}
        """

    /// Two samples 2.2 km apart on either side of a 100 m circle: no sample inside, yet the device passed through.
    @Test func groundTruthFindsAPassThroughBetweenTwoSamples() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let regions = folder + "/regions.geojson"
        try Self.regions.write(toFile: regions, atomically: true, encoding: .utf8)
        let samples = """
            {"device":"a","lat":25.0,"lon":121.489,"time":"2026-11-21T08:00:00Z"}
            {"device":"a","lat":25.0,"lon":121.511,"time":"2026-11-21T08:01:40Z"}

            """
        let run = try runExecutable(
            ["--source", "stdin", "--regions", regions, "--events", folder + "/events.ndjson", "--no-report",
             "--ground-truth", folder + "/truth.ndjson", "--score", "--threshold", "score.recall > 0.5"],
            stdin: samples)
        #expect(run.status == 99, "\(run.err)")
        #expect(run.out.contains("✗ score.recall > 0.5 (was 0)"))
        let truth = try String(contentsOfFile: folder + "/truth.ndjson", encoding: .utf8).split(separator: "\n")
        #expect(truth.count == 2)
        #expect(truth.first?.hasPrefix(#"{"device":"a","region":"c","event":"enter","time":"2026-11-21T08:00:45.49"#) == true)
        #expect(truth.last?.hasPrefix(#"{"device":"a","region":"c","event":"exit","time":"2026-11-21T08:00:54.50"#) == true)
        // The run's own events (none: no sample was inside) scored against that truth by the score command.
        let score = await runCommand(["score", "--truth", folder + "/truth.ndjson", "--events", folder + "/events.ndjson", "--json"])
        #expect(score.status == .success)
        #expect(score.out.hasPrefix(#"{"truth":2,"events":0,"matched":0,"recall":0,"precision":1,"missed":2,"spurious":0"#))
    }

    @Test func theExactProfileFindsEveryCrossingOfARandomWalk() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await runCommand(
            ["run", "--devices", "50", "--duration", "300", "--events", folder + "/events.ndjson", "--report",
             folder + "/report.json", "--score", "--ground-truth", folder + "/truth.ndjson", "--threshold",
             "score.recall == 1", "--threshold", "score.precision == 1", "--threshold", "score.latencySeconds.max <= 1"])
        #expect(run.status == .success, "\(run.out)\(run.err)")
        let report = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        #expect(report.contains(#""score":{"truth":"#))
        #expect(run.out.contains("Score against the truth"))
        // The score command agrees with the run's own score.
        let score = await runCommand(
            ["score", "--truth", folder + "/truth.ndjson", "--events", folder + "/events.ndjson", "--threshold", "recall == 1",
             "--threshold", "score.spurious == 0"])
        #expect(score.status == .success, "\(score.err)")
        #expect(score.out.contains("Thresholds: all 2 met"))
    }

    /// Played GPX traces: the truth follows every waypoint; the exact profile never invents a crossing, and
    /// reports each one at or after it happened.
    @Test func theExactProfileInventsNothingOnPlayedTraces() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await runCommand(
            ["run", "--source", "gpx:" + fixture("gpx/gpxgo__visnjan.gpx") + "," + fixture("gpx/gpxpy__korita-zbevnica.gpx"),
             "--devices", "10", "--position-jitter", "200", "--no-events", "--report", folder + "/report.json", "--score",
             "--threshold", "score.precision == 1", "--threshold", "score.truth > 100", "--threshold", "score.recall > 0.5",
             "--threshold", "score.latencySeconds.p50 >= 0"])
        #expect(run.status == .success, "\(run.out)\(run.err)")
    }

    @Test func scoreMeasuresDroppedAndDelayedEvents() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var truth = ""
        var events = ""
        for i in 0..<40 {
            let kind = i % 2 == 0 ? "enter" : "exit"
            truth += #"{"device":"d\#(i % 3)","region":"r","event":"\#(kind)","time":\#(1_800_000_000 + i * 100)}"# + "\n"
            guard i % 4 != 0 else { continue }  // drop a quarter
            events += #"{"device":"d\#(i % 3)","region":"r","event":"\#(kind)","time":\#(1_800_000_000 + i * 100 + 7)}"# + "\n"
        }
        try truth.write(toFile: folder + "/truth.ndjson", atomically: true, encoding: .utf8)
        try events.write(toFile: folder + "/events.ndjson", atomically: true, encoding: .utf8)
        let score = await runCommand(
            ["score", "--truth", folder + "/truth.ndjson", "--events", folder + "/events.ndjson", "--json", "--threshold",
             "recall > 0.9", "--threshold", "latencySeconds.p99 < 10"])
        #expect(score.status == .thresholdNotMet)
        #expect(score.out.contains(#""truth":40,"events":30,"matched":30,"recall":0.75,"precision":1,"missed":10"#))
        #expect(score.out.contains(#""latencySeconds":{"p50":7,"p90":7,"p95":7,"p99":7,"max":7,"mean":7}"#))
        #expect(score.out.contains(#"{"expression":"recall > 0.9","metric":"recall","value":0.75,"passed":false}"#))
        let table = await runCommand(["score", "--truth", folder + "/truth.ndjson", "--events", folder + "/events.ndjson", "--tolerance", "5"])
        #expect(table.status == .success)
        #expect(table.out.contains("total     40      30        0"))
        #expect(table.out.contains("first 20 of 40 missed:"))
    }

    @Test func scoreErrorsHaveTheirExitCodes() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "{\"device\":\"a\"}\n".write(toFile: folder + "/bad.ndjson", atomically: true, encoding: .utf8)
        let missing = await runCommand(["score", "--truth", folder + "/none.ndjson", "--events", folder + "/bad.ndjson"])
        #expect(missing.status == .inputMissing)
        let invalid = await runCommand(["score", "--truth", folder + "/bad.ndjson", "--events", folder + "/bad.ndjson"])
        #expect(invalid.status == .invalidInput)
        #expect(invalid.err.contains("bad.ndjson:1"))
        let usage = await runCommand(["score", "--truth", folder + "/bad.ndjson"])
        #expect(usage.status == .usage)
        let metric = await runCommand(["score", "--truth", "a", "--events", "b", "--threshold", "updates > 1"])
        #expect(metric.status == .usage)
        #expect(metric.err.contains("unknown metric"))
    }
}
