import Foundation
import GeofenceKit
import LocationRouter
import TestSupport
import Testing
@testable import location_router
import GeofenceFormats

/// The load-test loop end to end on 127.0.0.1: `run --target --listen` drives the reference service, which
/// drops and delays events on purpose, and the report must say exactly that.
@Suite struct TargetRunTests {
    static let regions = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[121.5654,25.033]},"properties":{"radius":300}},
        {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[121.5170,25.0478]},"properties":{"radius":500}},
        {"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[121.54,25.04]},"properties":{"radius":800}}]}
        """

    /// A port that was free a moment ago.
    static func freePort() throws -> UInt16 {
        let probe = try HTTPListener(address: ListenAddress(host: "127.0.0.1", port: 0)) { _, _, _ in 204 }
        let port = probe.address.port
        probe.stop()
        return port
    }

    // The limit catches a hang, not slowness: in a full suite on two cores this test's tasks can wait minutes
    // for a thread.
    @Test(.timeLimit(.minutes(10)))
    func theScoreMeasuresWhatTheServiceDroppedAndDelayed() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.regions.write(toFile: folder + "/regions.geojson", atomically: true, encoding: .utf8)
        let regions = try GeoJSONRegionDecoder.decode(Array(Self.regions.utf8))
        let eventsPort = try Self.freePort()
        let service = ReferenceService(
            regions: regions, webhook: try #require(URL(string: "http://127.0.0.1:\(eventsPort)/events")), drop: 0.25, delay: 0.3)
        let listener = try HTTPListener(address: ListenAddress(host: "127.0.0.1", port: 0)) {
            service.handle(method: $0, path: $1, body: $2)
        }
        let posting = Task { await service.run() }
        // The grace after the last sample is long, so that an event the service delays by 0.3 s arrives within it
        // even when the suite keeps this test's tasks from a thread (1.5 s once lost one: matched 23 of 24).
        let run = await runCommand(
            ["run", "--regions", folder + "/regions.geojson", "--devices", "100", "--duration", "600", "--no-events",
             "--report", folder + "/report.json", "--target", "http://127.0.0.1:\(listener.address.port)/samples",
             "--listen", "127.0.0.1:\(eventsPort)", "--target-batch", "250", "--listen-grace", "10",
             "--threshold", "target.score.recall > 0.99", "--threshold", "target.latencyMs.p50 >= 300"])
        listener.stop()
        service.stop()
        await posting.value
        let served = service.statistics
        #expect(run.status == .thresholdNotMet, "\(run.err)")
        #expect(served.events > 20 && served.dropped > 0 && served.dropped < served.events)
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any])
        let target = try #require(report["target"] as? [String: Any])
        let score = try #require(target["score"] as? [String: Any])
        // The exact profile on these samples reports every crossing of the truth: what is missing is what the
        // service dropped, no more, no less.
        #expect(score["truth"] as? Int == served.events)
        #expect(score["matched"] as? Int == served.events - served.dropped)
        #expect(score["missed"] as? Int == served.dropped)
        #expect(score["spurious"] as? Int == 0)
        #expect(target["samplesSent"] as? Int == 100 * 601)
        #expect(target["eventsReceived"] as? Int == served.delivered)
        #expect(target["failedRequests"] as? Int == 0)
        let latency = try #require(target["latencyMs"] as? [String: Double])
        #expect(try #require(latency["p50"]) >= 300)
        #expect(run.out.contains("✗ target.score.recall > 0.99"))
        #expect(run.out.contains("✓ target.latencyMs.p50 >= 300"))
    }

    @Test func targetOptionsAreCheckedBeforeAnythingRuns() async {
        let alone = await runCommand(["run", "--target", "http://127.0.0.1:1/samples", "--no-report", "--no-events"])
        #expect(alone.status == .usage)
        let badAddress = await runCommand(["run", "--target", "http://127.0.0.1:1/", "--listen", "somewhere", "--no-report"])
        #expect(badAddress.status == .usage)
        let serve = await runCommand(["serve", "--listen", "127.0.0.1:0", "--webhook", "http://127.0.0.1:1/"])
        #expect(serve.status == .usage)
        #expect(serve.err.contains("--regions"))
    }
}
