import GeofenceKit

/// What one shard evaluated.
public struct ShardSummary: Sendable {
    public var evaluated = 0
    public var outOfOrder = 0
    public var devices = 0
    public var monitoredRegions = 0
    /// Events sent on to the dispatcher.
    public var events = 0
    /// Events not delivered because the app was in the background (whenInUse).
    public var suppressedInBackground = 0
    /// Delivery delays of the events delivered late.
    public var delivery = DeliveryStatistics()
    /// Counts over time and sampled tracks, for the report's page.
    public var recorder: RunRecorder?
    /// What the devices' choices from a shared catalog did, and the catalog's coverage when it was evaluated.
    public var selection = SelectionSummary()
    public var coverage: CoverageSummary?
}

/// One shard of the monitoring stage: the thin owner of a ``MonitorState`` for a fixed subset of devices.
///
/// A device always lives in the same shard, so its samples are evaluated in order without locks, and the
/// shards together use every core. Batches come in from the source and go out to the dispatcher, each hop a
/// ``BoundedChannel``.
public actor RegionMonitor {
    private var state: MonitorState
    private let progress: PipelineProgress?
    private let shard: Int
    /// Whether the shard sends its final state when its input ends (periodic snapshots need it).
    private let sendsFinalState: Bool
    /// The most events one outgoing batch holds: a batch of samples that causes more (say, a thousand devices each
    /// refused ten thousand regions) goes out in several, each taking a credit, so memory stays bounded.
    static let maxEventsPerBatch = 1 << 16

    private var recorder: RunRecorder?
    /// The shared catalog evaluated without a slot limit, beside the state (`--coverage`).
    private var coverage: CoverageTracker?
    private var delivery = DeliveryStatistics()

    /// The delivery statistics so far, with the monitor's counts.
    private var deliveryStatistics: DeliveryStatistics {
        var statistics = delivery
        statistics.delayed = state.delayedCount
        statistics.heldBack = state.heldBackCount
        return statistics
    }

    /// - Parameters:
    ///   - recorder: where to record counts over time and sampled tracks (for the page), if anywhere.
    ///   - coverage: the catalog's unlimited evaluation, which sees every sample and every event of this shard.
    public init(
        state: MonitorState, progress: PipelineProgress? = nil, shard: Int = 0, sendsFinalState: Bool = false,
        recorder: RunRecorder? = nil, coverage: CoverageTracker? = nil
    ) {
        self.state = state
        self.coverage = coverage
        self.recorder = recorder
        self.progress = progress
        self.shard = shard
        self.sendsFinalState = sendsFinalState
    }

    /// Evaluates every batch until the input finishes.
    ///
    /// A batch's input credit returns when the monitor asks for the next batch, after its events are sent on; a send
    /// waits while the dispatcher's channel is full, so back-pressure from the dispatcher reaches the source. A
    /// snapshot cut (which came without a credit) is answered with this shard's state, in order with its events.
    public func run(_ input: BoundedChannel<LocationBatch>, output: BoundedChannel<EventBatch>) async throws -> ShardSummary {
        var emitted = 0
        for try await batch in input {
            if batch.isSnapshotCut {
                try await sendState(isFinal: false, output: output)
                continue
            }
            let emittedBefore = emitted
            // A batch that carries only a watermark (the end of a stream's input) has no sample to date its events
            // from: the timers it fires are timed from its arrival here, not from the clock's zero.
            let ingress = batch.ingress != 0 ? batch.ingress : MonotonicClock.now()
            var events: [GeofenceEvent] = []
            var next = 0
            while next < batch.count {
                next = evaluate(batch, from: next, into: &events)
                if events.count >= Self.maxEventsPerBatch {
                    emitted += try await send(&events, ingress: ingress, output: output)
                }
            }
            if let watermark = batch.watermark { state.advance(to: Timestamp(microseconds: watermark), into: &events) }
            recorder?.recordEvaluated(batch)
            if !events.isEmpty {
                emitted += try await send(&events, ingress: ingress, output: output)
            }
            progress?.add(updates: batch.count, events: emitted - emittedBefore, latestTime: batch.times.last)
        }
        if sendsFinalState { try await sendState(isFinal: true, output: output) }
        return ShardSummary(
            evaluated: state.evaluatedCount, outOfOrder: state.outOfOrderCount, devices: state.deviceCount,
            monitoredRegions: state.monitoredRegionCount, events: emitted,
            suppressedInBackground: state.suppressedInBackground, delivery: deliveryStatistics, recorder: recorder,
            selection: state.selectionSummary, coverage: coverage?.summary)
    }

    /// The state of this shard's devices, to continue in a later run.
    public func exportState() -> [DeviceState] {
        let states = finalStates()
        return (0..<states.count).map(states.state(at:))
    }

    /// This shard's devices, each state made when it is asked for, from the monitor's state as it is now (a copy
    /// that shares its tables until the monitor changes them: asked for when the run is over, it copies nothing).
    func finalStates() -> FinalStates {
        FinalStates(state: state, coverage: coverage, rows: state.seenRows)
    }

    /// The state of a shard's devices when the run was over, exported one device at a time.
    struct FinalStates: Sendable {
        let state: MonitorState
        let coverage: CoverageTracker?
        /// The rows of the devices the shard has seen.
        let rows: [Int32]

        var count: Int { rows.count }

        func device(at index: Int) -> Int32 {
            state.device(ofRow: Int(rows[index]))
        }

        func state(at index: Int) -> DeviceState {
            var device = state.exportState(row: Int(rows[index]))
            device.coverage = coverage?.state(of: device.device)
            return device
        }
    }

    /// Sends `events` on (waiting while the dispatcher's channel is full) and empties it; returns how many were sent.
    private func send(_ events: inout [GeofenceEvent], ingress: UInt64, output: BoundedChannel<EventBatch>) async throws -> Int {
        recorder?.recordEvents(events)
        coverage?.record(events)
        if state.delayedCount > 0 { delivery.record(events) }
        try await output.send(EventBatch(events: events, ingress: ingress, shard: shard))
        defer { events = [] }
        return events.count
    }

    /// Sends this shard's state: its part of a snapshot cut, or its final state.
    private func sendState(isFinal: Bool, output: BoundedChannel<EventBatch>) async throws {
        var batch = EventBatch(events: [], ingress: 0, shard: shard)
        batch.cut = .init(devices: exportState(), isFinal: isFinal)
        try await output.send(batch)
    }

    /// Evaluates the batch's samples from `start` until its end or until `events` holds a full outgoing batch;
    /// returns where to go on. Synchronous, so the hot loop stays out of the async frame.
    private func evaluate(_ batch: LocationBatch, from start: Int, into events: inout [GeofenceEvent]) -> Int {
        state.evaluate(batch, from: start, into: &events, eventLimit: Self.maxEventsPerBatch, coverage: &coverage)
    }
}
