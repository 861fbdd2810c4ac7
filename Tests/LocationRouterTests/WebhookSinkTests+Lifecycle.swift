import Foundation
import GeofenceKit
import Synchronization
import TestSupport
import Testing
@testable import LocationRouter

extension WebhookSinkTests {
    @Test func aCancelledWriteKeepsItsEventsForClose() async throws {
        // The first request is answered only once the test lets it go, so the only request slot stays busy
        // while the second write waits: no guess about how long anything takes.
        let firstAnswer = DispatchSemaphore(value: 0)
        let server = try WebhookTestServer { index, _ in
            if index == 0 { _ = firstAnswer.wait(timeout: .now() + 120) }
            return .ok
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        // A timeout far past the held answer, so that holding it is never a timeout and a retry.
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter) {
            $0.concurrency = 1
            $0.timeout = 120
        })
        let lines = Self.events(150)
        try await Self.running(sink) {
            let writer = Task {
                for start in stride(from: 0, to: lines.count, by: 50) {
                    try await sink.write(Array(lines[start..<start + 50].map { $0 + "\n" }.joined().utf8))
                }
            }
            // Cancel once the second write has handed over its events and waits for the only request slot (held
            // by the first batch until the test lets it go).
            while sink.statistics.accepted < 100 { try await Task.sleep(nanoseconds: 2_000_000) }
            writer.cancel()
            let result = await writer.result
            #expect(throws: CancellationError.self) { try result.get() }
            firstAnswer.signal()
            try await sink.close()
        }

        let written = Array(lines.prefix(sink.statistics.accepted))
        #expect(written.count == 100, "the second write was waiting, the third never ran")
        Self.expectEveryEventAccountedOnce(written, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.delivered == 100)
    }

    @Test func aPartialBatchIsSentAfterTheLingerTime() async throws {
        let server = try WebhookTestServer()
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let clock = ManualClock()
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter) { $0.linger = 0.05 }, clock: clock)
        let lines = Self.events(3)
        try await Self.running(sink) {
            try await sink.write(Array(lines.map { $0 + "\n" }.joined().utf8))
            await clock.waitForSleepers { $0.contains(.milliseconds(50)) }
            clock.advance(by: .milliseconds(49))
            #expect(sink.statistics.accepted == 0, "the partial batch waits out its linger time")
            clock.advance(by: .milliseconds(1))
            await server.waitForAnswers(1)
            #expect(server.deliveredEvents.count == 3, "sent before close")
            try await sink.close()
        }

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.deliveredRequests == 1)
    }

    @Test func anUnwritableDeadLetterFileMakesCloseThrowWithTheCount() async throws {
        let server = try WebhookTestServer { _, _ in WebhookTestServer.Response(status: 422) }
        defer { server.stop() }
        let deadLetter = "/nonexistent-\(UUID().uuidString)/dead.ndjson"
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter))
        let lines = Self.events(60)
        let error = await #expect(throws: SinkError.self) { try await Self.deliver(lines, to: sink) }
        #expect(error?.description.contains("60 events") == true)
        #expect(error?.destination == deadLetter)
        #expect(sink.statistics.lost == 60 && sink.statistics.delivered + sink.statistics.deadLettered == 0)
    }

    @Test(arguments: ["ftp://example.com/hook", "file:///tmp/events", "mailto:ops@example.com", "localhost:8080/hook", "/events"])
    func onlyHTTPAndHTTPSURLsAreAccepted(url: String) throws {
        #expect(throws: WebhookConfigurationError.self) { try WebhookConfiguration(url: url) }
        #expect(throws: WebhookConfigurationError.self) { try WebhookSink.make(url: url) }
    }

    @Test func theErrorForAnUnsupportedSchemeSaysWhatIsSupported() throws {
        let error = #expect(throws: WebhookConfigurationError.self) { try WebhookConfiguration(url: "ftp://example.com") }
        #expect(error?.description.contains("http:// and https://") == true)
        #expect(try WebhookConfiguration(url: "HTTPS://example.com/hook").url.host == "example.com")
    }

    @Test func aWholeRunDeliversEveryEmittedEvent() async throws {
        let server = try WebhookTestServer()
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let sink = WebhookSink(
            configuration: try Self.configuration(server, deadLetter: deadLetter) {
                $0.batchSize = 500
                $0.concurrency = 4
            })
        let walk = RandomWalkConfiguration(
            devices: 100, areaRadius: 3_000, speed: 5...30, duration: 60,
            regions: GeneratedRegionsConfiguration(perDevice: 10, radius: 100...1_500, maxDistance: 2_000))
        let configuration = SimulationConfiguration(source: .randomWalk(walk), seed: 42, shards: 2, batchSize: 256)
        let report = try await Simulation(configuration: configuration, sink: sink).run()

        #expect(report.eventsEmitted > 100)
        #expect(report.eventsEmitted == sink.statistics.delivered)
        #expect(report.dropped == 0)
        #expect(server.deliveredEvents.count == report.eventsEmitted)
        #expect(Set(server.deliveredEvents).count == report.eventsEmitted, "no event twice")
        #expect(!FileManager.default.fileExists(atPath: deadLetter))
    }
}
