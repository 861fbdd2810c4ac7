import Foundation
import Synchronization
import TestSupport
import Testing
@testable import LocationRouter

/// A sink's background work (`run()`) is part of the run's task tree: the simulation runs it beside the stages,
/// wrapping sinks pass it on, and it ends once the sink is closed.
@Suite struct EventSinkRunTests {
    /// A sink with background work: `run()` lasts until `close()`; the log tells what happened.
    final class BackgroundSink: EventSink {
        private struct State {
            var log: [String] = []
            var closed = false
            var runner: CheckedContinuation<Void, Never>?
        }

        private let state = Mutex(State())

        var log: [String] { state.withLock { $0.log } }

        func run() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let closed = state.withLock { state in
                    if !state.closed { state.runner = continuation }
                    return state.closed
                }
                if closed { continuation.resume() }
            }
            state.withLock { $0.log.append("run ended") }
        }

        func write(_ bytes: [UInt8]) async throws {
            state.withLock { $0.log.append("write") }
        }

        func close() async throws {
            let runner = state.withLock { state in
                state.closed = true
                state.log.append("close")
                defer { state.runner = nil }
                return state.runner
            }
            runner?.resume()
        }
    }

    @Test func theSimulationRunsTheSinksBackgroundWorkAndReturnsAfterItEnded() async throws {
        let sink = BackgroundSink()
        let walk = RandomWalkConfiguration(devices: 50, duration: 120, regions: .init(perDevice: 3))
        let configuration = SimulationConfiguration(source: .randomWalk(walk), seed: 3, shards: 2)
        let report = try await Simulation(configuration: configuration, sink: sink).run()

        #expect(report.eventsEmitted > 0)
        let log = sink.log
        #expect(log.contains("write"))
        #expect(log.suffix(2) == ["close", "run ended"], "the run returns only after the sink's run() has ended")
    }

    @Test func fanOutAndScoringSinksRunEveryWrappedSink() async throws {
        let direct = BackgroundSink()
        let scored = BackgroundSink()
        let fanOut = FanOutSink([direct, ScoringSink(forwardingTo: scored)])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await fanOut.run() }
            try await fanOut.write(Array("{}\n".utf8))
            try await fanOut.close()
            try await group.waitForAll()
        }
        #expect(direct.log == ["write", "close", "run ended"])
        #expect(scored.log == ["write", "close", "run ended"])
    }

    @Test func aWebhookSinkWhoseRunIsCancelledDeadLettersEverythingAtClose() async throws {
        let server = try WebhookTestServer()
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let sink = WebhookSink(configuration: try WebhookSinkTests.configuration(server, deadLetter: deadLetter))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await sink.run() }
            group.cancelAll()
        }
        let lines = WebhookSinkTests.events(120)
        try await sink.write(Array(lines.map { $0 + "\n" }.joined().utf8))
        try await sink.close()

        #expect(server.requests.isEmpty, "no worker is left to send")
        #expect(sink.statistics.deadLettered == 120 && sink.statistics.delivered == 0)
        WebhookSinkTests.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
    }
}
