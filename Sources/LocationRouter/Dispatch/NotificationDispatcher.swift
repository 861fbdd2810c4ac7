import GeofenceKit

/// What the dispatcher saw: events by kind, events handed to the sink, and their latency.
public struct DispatchSummary: Sendable {
    /// Events by ``EventKind``, indexed by its raw value.
    public var countsByKind: [Int] = Array(repeating: 0, count: EventKind.allCases.count)
    /// `failed` events by ``FailureReason``, indexed by its raw value.
    public var failuresByReason: [Int] = Array(repeating: 0, count: FailureReason.allCases.count)
    /// Events handed to the sink (all events when no sink is configured: they are counted, then discarded).
    public var delivered = 0
    /// From the moment the causing sample entered the pipeline to the moment the event was handed to the sink.
    public var latency = LatencyHistogram()
    /// Every event, when the dispatcher was asked to keep them (profile comparisons).
    public var events: [GeofenceEvent] = []

    public var total: Int { countsByKind.reduce(0, +) }
}

/// The last stage: takes event batches from every monitor, encodes them and hands them to the sink.
///
/// Events of one device arrive in that device's order, because a device lives in one shard and a shard sends
/// its batches in order. Writes are buffered up to `flushThreshold` bytes; the credit for a batch is returned
/// only after its bytes are buffered or written, so a slow sink holds the whole pipeline back.
public actor NotificationDispatcher {
    private let sink: (any EventSink)?
    private var encoder: EventEncoder
    private let flushThreshold: Int
    private let keepsEvents: Bool
    private var buffer: [UInt8] = []
    private var summary = DispatchSummary()

    /// - Parameter keepsEvents: whether to keep every event in the summary (memory grows with the event count).
    public init(sink: (any EventSink)?, encoder: EventEncoder, flushThreshold: Int = 1 << 16, keepsEvents: Bool = false) {
        self.sink = sink
        self.encoder = encoder
        self.flushThreshold = flushThreshold
        self.keepsEvents = keepsEvents
        buffer.reserveCapacity(flushThreshold + 4096)
    }

    /// Dispatches every batch until the stream finishes, then flushes and closes the sink.
    /// - Parameter credits: returned once per batch, after it is handled.
    public func run(_ batches: AsyncStream<EventBatch>, credits: CreditGate) async throws -> DispatchSummary {
        do {
            for await batch in batches {
                defer { credits.release() }
                try await dispatch(batch)
            }
            try await flush()
        } catch {
            // The sink still gets to settle what it holds (a webhook dead-letters it), whatever stopped the run.
            try? await sink?.close()
            throw error
        }
        try await sink?.close()
        return summary
    }

    private func dispatch(_ batch: EventBatch) async throws {
        for event in batch.events {
            summary.countsByKind[event.kind.rawValue] += 1
            if let failure = event.failure { summary.failuresByReason[failure.rawValue] += 1 }
            if sink != nil { encoder.encode(event, into: &buffer) }
        }
        summary.delivered += batch.events.count
        if keepsEvents { summary.events += batch.events }
        let handedOver = MonotonicClock.now()
        summary.latency.record(handedOver &- min(batch.ingress, handedOver), times: UInt64(batch.events.count))
        if buffer.count >= flushThreshold { try await flush() }
    }

    private func flush() async throws {
        guard let sink, !buffer.isEmpty else { return }
        let bytes = buffer
        buffer.removeAll(keepingCapacity: true)
        try await sink.write(bytes)
    }
}
