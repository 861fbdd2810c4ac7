import Foundation
import GeofenceKit
import Synchronization
import TestSupport
import Testing
@testable import LocationRouter

/// The webhook sink against a real HTTP server on 127.0.0.1: every event written must reach the server
/// exactly once (in a 2xx-answered request) or the dead-letter file, byte for byte, whatever the server does.
@Suite struct WebhookSinkTests {
    /// Distinct events as NDJSON lines (no newline), so a duplicate or a loss changes the multiset.
    static func events(_ count: Int, tag: String = "t") -> [String] {
        (0..<count).map { i in
            #"{"device":"dev-\#(tag)-\#(i)","region":"r\#(i % 7)","event":"enter","time":"2026-11-21T08:00:\#(i % 60)Z","lat":25.0478,"lon":121.517}"#
        }
    }

    /// Test-sized settings: small batches, millisecond backoffs. The linger is long (minutes: a busy suite can
    /// keep a test's task waiting that long between two writes) so that request counts do not depend on
    /// scheduling (close sends the partial batch); one test sets it short. The grace period is
    /// long too, so that it never cuts retries short when the whole suite keeps the sink's tasks waiting for a
    /// thread; the tests of the grace period set it short. So is the request timeout: it runs on the real
    /// clock, and a request the busy suite kept from its answer for seconds would otherwise become a retry that
    /// waits its backoff on a test's manual clock, which nothing advances; the tests of timeouts set it short.
    static func configuration(
        _ server: WebhookTestServer, deadLetter: String, _ adjust: (inout WebhookConfiguration) -> Void = { _ in }
    ) throws -> WebhookConfiguration {
        var configuration = try WebhookConfiguration(url: server.url, deadLetterPath: deadLetter)
        configuration.batchSize = 50
        configuration.linger = 600
        configuration.timeout = 120
        configuration.gracePeriod = 120
        configuration.backoff = WebhookBackoff(initial: 0.01, factor: 2, maximum: 0.05, seed: 1)
        adjust(&configuration)
        return configuration
    }

    /// Runs `body` (which writes to and closes the sink) with the sink's `run()` as a child task beside it, as an
    /// embedding program does; the sink is closed even when `body` throws, so that `run()` ends.
    static func running(_ sink: WebhookSink, _ body: () async throws -> Void) async throws {
        let outcome: Result<Void, any Error> = await withTaskGroup(of: Void.self) { group in
            group.addTask { await sink.run() }
            let outcome: Result<Void, any Error>
            do {
                try await body()
                outcome = .success(())
            } catch {
                try? await sink.close()
                outcome = .failure(error)
            }
            await group.waitForAll()
            return outcome
        }
        try outcome.get()
    }

    /// Writes `lines` `perWrite` at a time, as the dispatcher does, then closes the sink, with its `run()` beside.
    static func deliver(_ lines: [String], to sink: WebhookSink, perWrite: Int = 37) async throws {
        try await running(sink) {
            var start = 0
            while start < lines.count {
                let chunk = lines[start..<min(start + perWrite, lines.count)]
                try await sink.write(Array(chunk.map { $0 + "\n" }.joined().utf8))
                start += perWrite
            }
            try await sink.close()
        }
    }

    static func lines(in path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Every event is either in a 2xx-answered request or in the dead-letter file, once, and the statistics
    /// agree with both.
    static func expectEveryEventAccountedOnce(
        _ lines: [String], sink: WebhookSink, server: WebhookTestServer, deadLetter: String
    ) {
        let statistics = sink.statistics
        let deadLettered = Self.lines(in: deadLetter)
        let delivered = server.deliveredEvents
        #expect(statistics.accepted == lines.count)
        #expect(statistics.lost == 0)
        #expect(statistics.delivered + statistics.deadLettered == lines.count)
        #expect(delivered.count == statistics.delivered)
        #expect(deadLettered.count == statistics.deadLettered)
        #expect(Set(deadLettered).isSubset(of: Set(lines)), "dead letters are the original lines, byte for byte")
        #expect((delivered + canonicalEvents(inLines: deadLettered)).sorted() == canonicalEvents(inLines: lines).sorted())
        #expect(statistics.latency.count == UInt64(statistics.deliveredRequests))
    }

    @Test func anAcceptingServerGetsEveryEventOnceAsJSONArrays() async throws {
        let server = try WebhookTestServer()
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        // The test settings' long linger and timeout: on a machine busy with other tests, neither may split a batch
        // or retry one.
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter))
        let lines = Self.events(1_234)
        try await Self.deliver(lines, to: sink)

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        let statistics = sink.statistics
        #expect(statistics.delivered == 1_234)
        #expect(statistics.deliveredRequests == 25)  // 24 full batches of 50 and the rest at close
        #expect(statistics.retries == 0 && statistics.failedRequests == 0)
        #expect(!FileManager.default.fileExists(atPath: deadLetter), "no dead-letter file when nothing failed")
        for (request, _) in server.requests {
            #expect(request.method == "POST")
            #expect(request.path == "/events")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.body.first == UInt8(ascii: "[") && request.body.last == UInt8(ascii: "]"))
        }
        // The bodies are the lines themselves joined with commas: nothing is re-encoded.
        let bodies = server.requests.map { String(decoding: $0.request.body.dropFirst().dropLast(), as: UTF8.self) }
        #expect(Set(bodies.flatMap { body in body.replacingOccurrences(of: "},{", with: "}\n{").split(separator: "\n").map(String.init) }) == Set(lines))
    }

    /// Deadlines a test clock's sleepers wait for that are retry backoffs, not the (minutes-long) linger or
    /// grace period of ``configuration(_:deadLetter:_:)``.
    static let backoffHorizon = Duration.seconds(60)

    @Test func serverErrorsAreRetriedUntilTheServerRecovers() async throws {
        let server = try WebhookTestServer { index, _ in index < 4 ? WebhookTestServer.Response(status: 500) : .ok }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let configuration = try Self.configuration(server, deadLetter: deadLetter) { $0.concurrency = 1 }
        let clock = ManualClock()
        let sink = WebhookSink(configuration: configuration, clock: clock)
        let lines = Self.events(300)
        let delivery = Task { try await Self.deliver(lines, to: sink) }
        // One worker: the first batch fails four times, and each wait is the next draw of the seeded backoff.
        var jitter = SplitMix64(seed: configuration.backoff.seed)
        for attempt in 1...4 {
            await clock.waitForSleepers { $0.contains { $0 < Self.backoffHorizon } }
            let wait = configuration.backoff.delay(afterAttempt: attempt, using: &jitter)
            let deadline = try #require(clock.pendingDeadlines.first)
            #expect(deadline == clock.now + .nanoseconds(Int64(wait * 1e9)), "attempt \(attempt) waits its backoff")
            #expect(server.requests.count == attempt, "no request before the backoff is over")
            clock.advance(to: deadline)
        }
        try await delivery.value

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.delivered == 300)
        #expect(sink.statistics.retries == 4)
        #expect(sink.statistics.deadLettered == 0)
    }

    @Test func retryAfterSecondsIsHonouredOn429() async throws {
        let server = try WebhookTestServer { index, _ in
            index == 0 ? WebhookTestServer.Response(status: 429, headers: [("Retry-After", "1")]) : .ok
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let clock = ManualClock()
        let sink = WebhookSink(
            configuration: try Self.configuration(server, deadLetter: deadLetter) { $0.concurrency = 1 }, clock: clock)
        let lines = Self.events(20)
        let delivery = Task { try await Self.deliver(lines, to: sink) }
        await clock.waitForSleepers { $0.contains { $0 < Self.backoffHorizon } }
        #expect(clock.pendingDeadlines.first == .seconds(1), "waits the Retry-After, not the backoff")
        clock.advance(by: .milliseconds(999))
        #expect(server.requests.count == 1, "no retry before the Retry-After is over")
        clock.advance(by: .milliseconds(1))
        try await delivery.value

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(server.requests.count == 2)
        #expect(sink.statistics.retries == 1)
    }

    @Test(.timeLimit(.minutes(1))) func retryAfterZeroReplacesALongBackoffOn503() async throws {
        // A backoff far longer than the grace period: had it been used, close would have dead-lettered the batch.
        let backoff = WebhookBackoff(initial: 600, factor: 2, maximum: 600, seed: 1)
        var generator = SplitMix64(seed: backoff.seed)
        let backoffAlone = backoff.delay(afterAttempt: 1, using: &generator) + backoff.delay(afterAttempt: 2, using: &generator)
        #expect(backoffAlone > 300, "the backoff alone would take long")
        let server = try WebhookTestServer { index, _ in
            index < 2 ? WebhookTestServer.Response(status: index == 0 ? 503 : 429, headers: [("Retry-After", "0")]) : .ok
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let clock = ManualClock()
        let sink = WebhookSink(
            configuration: try Self.configuration(server, deadLetter: deadLetter) {
                $0.concurrency = 1
                $0.backoff = backoff
            }, clock: clock)
        let lines = Self.events(20)
        // The clock never moves: had the backoff been used, the retry would wait for it (and the time limit fail).
        try await Self.deliver(lines, to: sink)

        #expect(clock.now == .zero)
        #expect(clock.requestedDeadlines.filter { $0 < Self.backoffHorizon } == [.zero, .zero], "both retries waited 0 s")
        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.delivered == 20 && sink.statistics.retries == 2)
    }

    @Test func aSlowServerSuspendsWriteAndNeverSeesMoreThanConcurrencyRequests() async throws {
        // The first two requests wait (on the server's threads, at most 180 s) for each other, so that they overlap
        // however late a starved writer hands over the second batch (30 s was once too short: the whole suite on two
        // loaded cores); a sink with one request slot would leave the first one waiting alone.
        let arrivals = Atomic<Int>(0)
        let server = try WebhookTestServer { index, _ in
            arrivals.add(1, ordering: .relaxed)
            let clock = MonotonicTestClock()
            while index < 2 && arrivals.load(ordering: .relaxed) < 2 && clock.seconds < 180 { usleep(1_000) }
            return WebhookTestServer.Response(status: 200, delay: 0.2)
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        // A timeout far past the barrier's wait, so that waiting there is never a timeout and a retry.
        let sink = WebhookSink(configuration: try Self.configuration(server, deadLetter: deadLetter) {
            $0.concurrency = 2
            $0.timeout = 600
        })
        let lines = Self.events(500)
        var longestWrite = 0.0
        try await Self.running(sink) {
            for start in stride(from: 0, to: lines.count, by: 50) {
                let clock = MonotonicTestClock()
                try await sink.write(Array(lines[start..<start + 50].map { $0 + "\n" }.joined().utf8))
                longestWrite = max(longestWrite, clock.seconds)
            }
            try await sink.close()
        }

        Self.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(server.peakInFlight == 2)
        #expect(sink.statistics.delivered == 500 && sink.statistics.deliveredRequests == 10)
        #expect(sink.statistics.writeWaits > 0)
        #expect(longestWrite > 0.1, "write waited for a request slot")
        #expect(sink.statistics.latency.quantile(0.5) >= 200_000_000)
    }
}
