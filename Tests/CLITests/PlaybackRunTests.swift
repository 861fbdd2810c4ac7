import Foundation
import TestSupport
import Testing
@testable import location_router

/// GPX playback and routes from the command line.
@Suite struct PlaybackRunTests {
    @Test func gpxFilesPlayForManyDevicesWithTheirOwnRegions() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--source", "gpx:\(fixture("gpx/gpxgo__visnjan.gpx")),\(fixture("gpx/gpxstudio__with_routes.gpx"))",
            "--devices", "40", "--report", directory + "/report.json", "--events", directory + "/events.ndjson",
        ])
        #expect(run.status == .success, "\(run.err)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as? [String: Any])
        #expect(report["devices"] as? Int == 40)
        // Visnjan has 413 timed track points, played at their own times by 20 devices.
        #expect((report["updates"] as? Int ?? 0) > 20 * 413)
        #expect((report["eventsEmitted"] as? Int ?? 0) > 0)
        #expect(report["dropped"] as? Int == 0)
    }

    @Test func aGPXFileWithoutPlayablePointsIsAnError() async {
        let run = await runCommand(["--source", "gpx:\(fixture("gpx/togeojson__empty_trk.gpx"))", "--devices", "2"])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("no playable point"))
    }

    @Test func gpxFilesReadTogetherReportInTheOrderGiven() async throws {
        // Files are read at once on every core, and reported one after the other: each file's warnings in turn, up to
        // the first file that fails, whose error ends the run; nothing of the files after it.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func write(_ name: String, _ points: String) throws -> String {
            let path = directory + "/" + name
            try "<gpx version=\"1.1\"><trk><trkseg>\n\(points)\n</trkseg></trk></gpx>\n"
                .write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        let good = #"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></trkpt>"#
        let first = try write("first.gpx", good + "\n" + #"<trkpt lat="91" lon="2"/>"#)
        let second = try write("second.gpx", #"<trkpt lat="1" lon="200"/>"# + "\n" + good)
        let broken = try write("broken.gpx", "<trkpt lat=\"1\" lon=\"2\">")
        let after = try write("after.gpx", #"<trkpt lat="-91" lon="2"/>"# + "\n" + good)
        let run = await runCommand(["--source", "gpx:\(first),\(second),\(broken),\(after)", "--devices", "4", "--no-events"])
        #expect(run.status == .invalidInput)
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.err)")
        #expect(lines.first?.hasPrefix("warning: \(first):3:") == true && lines.first?.contains("trkpt.lat") == true)
        #expect(lines.dropFirst().first?.hasPrefix("warning: \(second):2:") == true)
        #expect(lines.last?.contains(broken) == true && !run.err.contains(after))
    }

    @Test func gpxDashPlaysStandardInputAsThePathWould() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = fixture("gpx/gpxgo__visnjan.gpx")
        func updates(source: String, stdin: String) throws -> Int? {
            let report = directory + "/report.json"
            let run = try runExecutable(
                ["--source", source, "--devices", "3", "--no-events", "--quiet", "--report", report], stdin: stdin)
            #expect(run.status == 0, "\(run.err)")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
            return (object as? [String: Any])?["updates"] as? Int
        }
        let fromPath = try #require(try updates(source: "gpx:\(path)", stdin: ""))
        #expect(fromPath > 413)
        #expect(try updates(source: "gpx:-", stdin: String(contentsOfFile: path, encoding: .utf8)) == fromPath)
        // Standard input is read once: named twice, the source is refused, and the message says why.
        for twice in ["gpx:-,-", "gpx:-,/dev/stdin"] {
            let refused = try runExecutable(["--source", twice, "--no-events"], stdin: "")
            #expect(refused.status == 64)
            #expect(
                refused.err.contains("standard input ('-' or /dev/stdin) is named more than once"), "\(refused.err)")
        }
        let empty = try runExecutable(["--source", "gpx:", "--no-events"], stdin: "")
        #expect(empty.status == 64 && empty.err.contains("needs at least one path"), "\(empty.err)")
    }

    @Test func aMissingGPXFileExits66() async {
        #expect(await runCommand(["--source", "gpx:/nonexistent/track.gpx"]).status == .inputMissing)
    }

    @Test func aRouteIsPlayedAtTheGivenSpeed() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--source", "route:25.0478,121.5170;25.0478,121.5270", "--speed", "10", "--devices", "1",
            "--report", directory + "/report.json", "--no-events",
        ])
        #expect(run.status == .success, "\(run.err)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as? [String: Any])
        // 0.01° of longitude at 25° N is about 1,009 m: about 101 s at 10 m/s, one sample a second.
        let simulated = report["simulatedSeconds"] as? Double ?? 0
        #expect(abs(simulated - 100.9) < 1)
        #expect(report["updates"] as? Int == Int(simulated.rounded(.down)) + 2)
    }
}
