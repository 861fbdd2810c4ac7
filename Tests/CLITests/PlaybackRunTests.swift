import Foundation
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
