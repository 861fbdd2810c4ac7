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
}

/// One shard of the monitoring stage: the thin owner of a ``MonitorState`` for a fixed subset of devices.
///
/// A device always lives in the same shard, so its samples are evaluated in order without locks, and the
/// shards together use every core. Batches come in from the source and go out to the dispatcher, each hop
/// gated by a ``CreditGate``.
public actor RegionMonitor {
    private var state: MonitorState
    private let progress: PipelineProgress?

    public init(state: MonitorState, progress: PipelineProgress? = nil) {
        self.state = state
        self.progress = progress
    }

    /// Evaluates every batch until the input finishes.
    ///
    /// Returns the input credit as soon as a batch is evaluated and takes an output credit before sending its
    /// events on, so back-pressure from the dispatcher reaches the source.
    public func run(
        _ input: AsyncStream<LocationBatch>, inputCredits: CreditGate,
        output: AsyncStream<EventBatch>.Continuation, outputCredits: CreditGate
    ) async throws -> ShardSummary {
        var emitted = 0
        for await batch in input {
            let events = evaluate(batch)
            inputCredits.release()
            progress?.add(updates: batch.count, events: events.count)
            if !events.isEmpty {
                emitted += events.count
                try await outputCredits.acquire()
                output.yield(EventBatch(events: events, ingress: batch.ingress))
            }
        }
        return ShardSummary(
            evaluated: state.evaluatedCount, outOfOrder: state.outOfOrderCount, devices: state.deviceCount,
            monitoredRegions: state.monitoredRegionCount, events: emitted,
            suppressedInBackground: state.suppressedInBackground)
    }

    /// The state of this shard's devices, to continue in a later run.
    public func exportState() -> [DeviceState] {
        state.exportState()
    }

    private func evaluate(_ batch: LocationBatch) -> [GeofenceEvent] {
        var events: [GeofenceEvent] = []
        for i in 0..<batch.count {
            let accuracy = batch.accuracies[i]
            _ = state.evaluate(
                device: batch.devices[i], latitude: batch.latitudes[i], longitude: batch.longitudes[i],
                time: Timestamp(microseconds: batch.times[i]), accuracy: accuracy.isNaN ? nil : Double(accuracy),
                into: &events)
        }
        if let watermark = batch.watermark { state.advance(to: Timestamp(microseconds: watermark), into: &events) }
        return events
    }
}
