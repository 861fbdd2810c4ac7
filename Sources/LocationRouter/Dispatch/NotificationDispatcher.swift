import GeofenceKit

/// What the dispatcher saw: events by kind, events the sink accepted, and their latency.
public struct DispatchSummary: Sendable {
    /// Events by ``EventKind``, indexed by its raw value.
    public var countsByKind: [Int] = Array(repeating: 0, count: EventKind.allCases.count)
    /// `failed` events by ``FailureReason``, indexed by its raw value.
    public var failuresByReason: [Int] = Array(repeating: 0, count: FailureReason.allCases.count)
    /// Events the sink accepted: counted when its `write` returned for them (with no sink, every event: they
    /// are counted, then discarded).
    public var delivered = 0
    /// From the moment the causing sample entered the pipeline to the moment the sink accepted the event.
    public var latency = LatencyHistogram()
    /// Every event, when the dispatcher was asked to keep them (profile comparisons).
    public var events: [GeofenceEvent] = []
    /// Periodic snapshots saved, and those that failed (each failure is also reported as it happens).
    public var snapshotsSaved = 0
    public var snapshotFailures = 0
    /// The events file's durable size when the run ended (for the final snapshot), when events go to a file.
    public var eventsBytes: Int64?
    /// Each device's last event `seq`, for the final snapshot.
    public var sequences: [(device: Int32, seq: UInt64)] = []
    /// Every device's final state, when the shards sent it (runs with periodic snapshots), for the final snapshot.
    public var finalStates: [DeviceState]?
    /// The error that made the sink refuse events, if one did: the events from then on are counted, not written,
    /// and show as `dropped`.
    public var sinkFailure: (any Error)?
    /// Counts over time, and `enter` / `exit` / `dwell` events per region index (empty when regions were not
    /// counted), for the report's page.
    public var recorder: RunRecorder?
    public var regionFires: [UInt32] = []

    public var total: Int { countsByKind.reduce(0, +) }
}

/// The last stage: takes event batches from every monitor, encodes them and hands them to the sink.
///
/// Events of one device arrive in that device's order, because a device lives in one shard and a shard sends
/// its batches in order. Writes are buffered up to `flushThreshold` bytes while batches are queued, and flushed
/// whenever the queue is empty; events count as delivered, and their
/// latency is measured, when the sink has accepted the bytes that hold them. The credit for a batch is returned
/// once it is buffered or written, so a slow sink holds the whole pipeline back.
///
/// Snapshot cuts (``SnapshotCut``): once every shard's cut has arrived, the dispatcher writes what came before
/// it, asks the sink for its durable size and hands the snapshot to `saveSnapshot`; batches a shard sent after
/// its cut wait until then.
public actor NotificationDispatcher {
    private let sink: (any EventSink)?
    private var encoder: EventEncoder
    private let flushThreshold: Int
    private let keepsEvents: Bool
    private let shardCount: Int
    private let saveSnapshot: (@Sendable (SnapshotCut.Snapshot) async throws -> Void)?
    private let snapshotFailed: (@Sendable (any Error) -> Void)?
    private let cut: SnapshotCut?
    private var buffer: [UInt8] = []
    /// The events in `buffer`, by the ingress time of their batch, not yet accepted by the sink.
    private var pending: [(ingress: UInt64, count: Int, sampleTime: Int64?)] = []
    private var summary = DispatchSummary()
    private var recorder: RunRecorder?
    /// The shards' parts of the cut under way (or their final states), and the batches held behind it.
    private var cutStates: [Int: SnapshotCut.ShardState] = [:]
    private var held: [EventBatch] = []

    /// - Parameters:
    ///   - keepsEvents: whether to keep every event in the summary (memory grows with the event count).
    ///   - shardCount: how many monitors send batches (each sends one part of every snapshot cut).
    ///   - recorder: where to record events over time (for the page); `regionFireSlots`: how many region indices
    ///     to count `enter` / `exit` / `dwell` events for.
    ///   - saveSnapshot: writes a complete cut's snapshot; its errors are reported through `snapshotFailed`, counted,
    ///     and do not stop the run.
    public init(
        sink: (any EventSink)?, encoder: EventEncoder, flushThreshold: Int = 1 << 16, keepsEvents: Bool = false,
        shardCount: Int = 1, cut: SnapshotCut? = nil,
        saveSnapshot: (@Sendable (SnapshotCut.Snapshot) async throws -> Void)? = nil,
        snapshotFailed: (@Sendable (any Error) -> Void)? = nil, recorder: RunRecorder? = nil, regionFireSlots: Int = 0
    ) {
        self.recorder = recorder
        summary.regionFires = Array(repeating: 0, count: max(0, regionFireSlots))
        self.sink = sink
        self.encoder = encoder
        self.flushThreshold = flushThreshold
        self.keepsEvents = keepsEvents
        self.shardCount = shardCount
        self.cut = cut
        self.saveSnapshot = saveSnapshot
        self.snapshotFailed = snapshotFailed
        buffer.reserveCapacity(flushThreshold + 4096)
    }

    /// Dispatches every batch until the channel finishes, then flushes and closes the sink. A batch's credit returns
    /// when the next one is asked for, after it is handled.
    /// - Parameters:
    ///   - checkpointsAtEnd: whether to make the events file durable at the end and report its size (for the
    ///     final state snapshot).
    public func run(
        _ batches: BoundedChannel<EventBatch>, checkpointsAtEnd: Bool = false
    ) async throws -> DispatchSummary {
        do {
            for try await batch in batches {
                try await take(batch)
                // Nothing queued behind this batch: write now, so that no event waits in the buffer for
                // others (a paced or idle run delivers each batch as it comes; a busy one writes big chunks).
                if batches.queuedCount == 0 { try await flush() }
            }
            // A cut that can no longer complete (a shard ended without its part) lets its held batches go.
            try await releaseHeld()
            try await flush()
            if checkpointsAtEnd && summary.sinkFailure == nil { summary.eventsBytes = try await sink?.checkpoint() }
        } catch {
            // The sink still gets to settle what it holds (a webhook dead-letters it), whatever stopped the run.
            try? await sink?.close()
            throw error
        }
        do {
            try await sink?.close()
        } catch {
            summary.sinkFailure = summary.sinkFailure ?? error
        }
        summary.sequences = encoder.sequences
        if cutStates.count == shardCount, cutStates.values.allSatisfy(\.isFinal) {
            summary.finalStates = cutStates.values.flatMap(\.devices)
        }
        summary.recorder = recorder
        return summary
    }

    private func take(_ batch: EventBatch) async throws {
        if let part = batch.cut {
            cutStates[batch.shard] = part
            try await completeCutIfReady()
        } else if let part = cutStates[batch.shard], !part.isFinal {
            held.append(batch)
        } else {
            try await dispatch(batch)
        }
    }

    /// Saves the snapshot once every shard has its part in, then lets the held batches go.
    private func completeCutIfReady() async throws {
        guard cutStates.count == shardCount, cutStates.values.contains(where: { !$0.isFinal }) else { return }
        try await flush()
        do {
            if let failure = summary.sinkFailure { throw failure }
            let bytes = try await sink?.checkpoint()
            let snapshot = SnapshotCut.Snapshot(
                devices: cutStates.values.flatMap(\.devices), sequences: encoder.sequences, eventsBytes: bytes)
            try await saveSnapshot?(snapshot)
            summary.snapshotsSaved += 1
        } catch {
            summary.snapshotFailures += 1
            snapshotFailed?(error)
        }
        cutStates = cutStates.filter { $0.value.isFinal }
        cut?.end()
        try await releaseHeld()
    }

    private func releaseHeld() async throws {
        let batches = held
        held = []
        for batch in batches { try await dispatch(batch) }
        cut?.end()
    }

    private func dispatch(_ batch: EventBatch) async throws {
        for event in batch.events {
            summary.countsByKind[event.kind.rawValue] += 1
            if let failure = event.failure { summary.failuresByReason[failure.rawValue] += 1 }
            if event.kind.rawValue <= EventKind.dwell.rawValue, Int(event.region) < summary.regionFires.count,
                event.region >= 0
            {
                summary.regionFires[Int(event.region)] &+= 1
            }
        }
        if sink != nil { encoder.encode(batch.events, into: &buffer) }
        if keepsEvents { summary.events += batch.events }
        if !batch.events.isEmpty { recorder?.recordDispatched(batch.events, at: MonotonicClock.now()) }
        guard sink != nil else {
            summary.delivered += batch.events.count
            record(ingress: batch.ingress, count: batch.events.count, sampleTime: batch.events.first?.time.microseconds)
            return
        }
        pending.append((batch.ingress, batch.events.count, batch.events.first?.time.microseconds))
        if buffer.count >= flushThreshold { try await flush() }
    }

    private func flush() async throws {
        guard let sink, !buffer.isEmpty else { return }
        let bytes = buffer
        buffer.removeAll(keepingCapacity: true)
        guard summary.sinkFailure == nil else {
            pending.removeAll(keepingCapacity: true)
            return
        }
        do {
            try await sink.write(bytes)
        } catch {
            // The run drains all the same, so that the report can say how many events were lost.
            summary.sinkFailure = error
            pending.removeAll(keepingCapacity: true)
            return
        }
        for (ingress, count, sampleTime) in pending {
            summary.delivered += count
            record(ingress: ingress, count: count, sampleTime: sampleTime)
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func record(ingress: UInt64, count: Int, sampleTime: Int64?) {
        let handedOver = MonotonicClock.now()
        let latency = handedOver &- min(ingress, handedOver)
        summary.latency.record(latency, times: UInt64(count))
        recorder?.recordLatency(latency, times: UInt64(count), at: handedOver, sampleTime: sampleTime)
    }
}
