import Foundation
import GeofenceKit
import Synchronization
import Testing
@testable import LocationRouter

/// `dropped` comes from real counters: a sink that stops accepting bytes leaves its events counted as dropped.
@Suite struct AccountingTests {
    /// Accepts `accepted` writes, then fails every one.
    final class FailingSink: EventSink {
        let inner = CollectingSink()
        private let writes = Mutex(0)
        private let accepted: Int

        init(accepted: Int) { self.accepted = accepted }

        func write(_ bytes: [UInt8]) async throws {
            let count = writes.withLock { count -> Int in
                count += 1
                return count
            }
            guard count <= accepted else { throw SinkError(destination: "failing", message: "disk full") }
            try await inner.write(bytes)
        }

        func close() async throws {}
    }

    @Test func eventsASinkRefusedAreDroppedAndTheRunStillReports() async throws {
        let sink = FailingSink(accepted: 2)
        var configuration = SimulationConfiguration(source: .randomWalk(PipelineTests.walk), shards: 2, batchSize: 256)
        configuration.eventBufferBytes = 1  // one write per event batch
        let report = try await Simulation(configuration: configuration, sink: sink).run()
        let written = sink.inner.lines.count
        #expect(written > 0 && written < report.eventsEmitted)
        #expect(report.notificationsDelivered == written)
        #expect(report.dropped == report.eventsEmitted - written)
        #expect(report.sinkFailure?.contains("disk full") == true)
        #expect(!report.isBalanced)
    }
}
