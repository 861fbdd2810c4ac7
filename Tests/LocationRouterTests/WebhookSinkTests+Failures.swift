import Foundation
import GeofenceKit
import Synchronization
import TestSupport
import Testing
@testable import LocationRouter

extension WebhookSinkTests {
    @Test func refusedConnectionsAreRetriedUntilTheServerListens() async throws {
        let server = try WebhookTestServer(listenAfter: nil)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let clock = ManualClock()
        let sink = WebhookSink(
            configuration: try Self.configuration(server, deadLetter: deadLetter) {
                $0.concurrency = 1
                $0.maxAttempts = 30
                $0.backoff = WebhookBackoff(initial: 0.05, factor: 2, maximum: 0.3, seed: 5)
            }, clock: clock)
        let lines = Self.events(120)
        let delivery = Task { try await Self.deliver(lines, to: sink) }
        // Listen only once a refused attempt waits for its retry: not after a guessed delay.
        await clock.waitForSleepers { $0.contains { $0 < Self.backoffHorizon } }
        server.listenNow()
        clock.advance(by: .seconds(1))
        try await delivery.value

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.delivered == 120)
        #expect(sink.statistics.retries == 1)
    }

    @Test func refusedConnectionsAreDeadLetteredWhenAttemptsRunOut() async throws {
        let server = try WebhookTestServer(listenAfter: nil)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let clock = ManualClock()
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter) { $0.maxAttempts = 3 }, clock: clock)
        let lines = Self.events(120)
        try await clock.advancingToEachDeadline(before: Self.backoffHorizon) { try await Self.deliver(lines, to: sink) }

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        let statistics = sink.statistics
        #expect(statistics.deadLettered == 120 && statistics.delivered == 0)
        #expect(statistics.failedRequests == 3)  // 50 + 50 + 20
        #expect(statistics.retries == 3 * 2)
    }

    @Test func aClientErrorIsDeadLetteredWithoutRetry() async throws {
        let server = try WebhookTestServer { _, _ in WebhookTestServer.Response(status: 400) }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter))
        let lines = Self.events(130)
        try await Self.deliver(lines, to: sink)

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(server.requests.count == 3)
        #expect(sink.statistics.retries == 0)
        #expect(sink.statistics.deadLettered == 130 && sink.statistics.failedRequests == 3)
        #expect(Self.lines(in: deadLetter).sorted() == lines.sorted())
    }

    @Test func aRedirectIsNotFollowedButDeadLettered() async throws {
        let server = try WebhookTestServer { _, request in
            request.path == "/events" ? WebhookTestServer.Response(status: 307, headers: [("Location", "/elsewhere")]) : .ok
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter))
        let lines = Self.events(10)
        try await Self.deliver(lines, to: sink)

        #expect(server.requests.map(\.request.path) == ["/events"])
        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.deadLettered == 10)
    }

    @Test func closeDeadLettersWhatTheGracePeriodCannotDeliver() async throws {
        let server = try WebhookTestServer { _, _ in WebhookTestServer.Response(status: 200, delay: 300) }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        // The requests outlast the grace period by far and never time out within it: only the grace period ends them.
        let clock = ManualClock()
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter) {
            $0.gracePeriod = 0.3
            $0.timeout = 600
        }, clock: clock)
        let lines = Self.events(80)
        let delivery = Task { try await Self.deliver(lines, to: sink) }
        // Both batches are at the server before the grace period (on the test's clock) ends. How long that takes
        // depends on how busy other suites keep the machine's threads, so the time is taken from the grace
        // period's end, not from here.
        await server.waitForAnswers(2)
        await clock.waitForSleepers { $0.contains(.milliseconds(300)) }
        let elapsed = MonotonicTestClock()
        clock.advance(by: .milliseconds(300))
        try await delivery.value

        // Well before the server's 300 s answer (which would have made the events delivered, not dead-lettered),
        // with room for a machine whose threads other suites keep busy.
        #expect(elapsed.seconds < 150, "close returned after the server's answer, not at the grace period's end")
        let statistics = sink.statistics
        #expect(statistics.deadLettered == 80 && statistics.delivered == 0 && statistics.lost == 0)
        #expect(statistics.failedRequests == 2)
        #expect(Self.lines(in: deadLetter).sorted() == lines.sorted())
    }

    @Test func aTimeoutIsRetried() async throws {
        // A 400 would be dead-lettered at once; only a timeout makes the sink try again.
        let server = try WebhookTestServer { _, _ in WebhookTestServer.Response(status: 400, delay: 1) }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let clock = ManualClock()
        let sink = WebhookSink(
            configuration: try Self.configuration(server, deadLetter: deadLetter) {
                $0.timeout = 0.25
                $0.maxAttempts = 2
            }, clock: clock)
        let lines = Self.events(40)
        try await clock.advancingToEachDeadline(before: Self.backoffHorizon) { try await Self.deliver(lines, to: sink) }

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.retries == 1 && sink.statistics.deadLettered == 40)
    }
}
