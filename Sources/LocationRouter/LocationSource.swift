import GeofenceKit

/// Where the samples of a run come from.
public enum SourceKind: Sendable {
    /// A seeded random walk of generated devices.
    case randomWalk(RandomWalkPlan)
    /// Recorded traces (GPX files, a route) played by many devices.
    case playback(PlaybackPlan)
    /// Samples decoded from a byte stream (standard input or a file).
    case samples(SampleInput)
}

/// What the source produced and refused.
public struct SourceSummary: Sendable {
    /// Samples read or generated: every one is sent on, filtered or rejected.
    public var read = 0
    /// Samples sent on to the monitors.
    public var samples = 0
    /// Samples the source's filters (distance filter, significant change) held back, as a device would.
    public var filtered = 0
    /// Samples refused at the source, by reason (malformed lines, invalid fields, out-of-order times, …).
    public var rejected: [SampleRejection: Int] = [:]
    /// The first input errors, with their lines, for the user to see.
    public var inputErrors: [InputError] = []
    /// The earliest and latest sample times sent.
    public var firstTime: Int64 = .max
    public var lastTime: Int64 = .min

    mutating func merge(_ other: SourceSummary) {
        read += other.read
        samples += other.samples
        filtered += other.filtered
        rejected.merge(other.rejected, uniquingKeysWith: +)
        inputErrors += other.inputErrors
        firstTime = min(firstTime, other.firstTime)
        lastTime = max(lastTime, other.lastTime)
    }

    mutating func noteTimes(of batch: LocationBatch) {
        samples += batch.count
        for time in batch.times {
            firstTime = min(firstTime, time)
            lastTime = max(lastTime, time)
        }
    }
}

/// The first stage: produces ``LocationBatch``es and routes each device's samples to its shard.
///
/// Device `d` goes to shard `d % shardCount`. Each shard's ``BoundedChannel`` holds the source back when full, so
/// it never runs more than the channel's capacity ahead of a monitor. When the input ends it finishes every
/// shard's channel, which lets the later stages drain.
///
/// A plain value: it holds only its configuration; ``run()`` keeps its state in local variables and child tasks.
public struct LocationSource: Sendable {
    private let kind: SourceKind
    private let outputs: [BoundedChannel<LocationBatch>]
    private let batchSize: Int
    private let pace: Pace
    private let filter: LocationFilterSettings
    private let seed: UInt64
    private let stop: StopSignal?
    private let partition: Partition
    private let clock: any RunClock

    /// - Parameters:
    ///   - filter: source-side filters and noise, applied to every sample before it is sent.
    ///   - seed: the seed of the noise for sample streams (the random walk and playback use their plan's).
    ///   - partition: the devices to produce; the others are skipped (see ``Partition``).
    ///   - clock: what pacing waits on (the real clock unless a test drives it).
    public init(
        kind: SourceKind, outputs: [BoundedChannel<LocationBatch>],
        batchSize: Int, pace: Pace, filter: LocationFilterSettings = .init(), seed: UInt64 = 0, stop: StopSignal? = nil,
        partition: Partition = .whole, clock: any RunClock = .continuous
    ) {
        self.clock = clock
        self.stop = stop
        self.partition = partition
        precondition(!outputs.isEmpty, "one channel per shard")
        self.kind = kind
        self.outputs = outputs
        self.batchSize = max(1, batchSize)
        self.pace = pace
        self.filter = filter
        self.seed = seed
    }

    /// Time steps of one device generated back to back by the random walk at full speed.
    static let stepsPerVisitAtFullSpeed = 16

    /// Produces every sample, then finishes the shards' channels (also when it throws).
    public func run() async throws -> SourceSummary {
        defer { for output in outputs { output.finish() } }
        switch kind {
        case .randomWalk(let plan):
            let filter = filter
            // At full speed a device's steps go back to back (its regions stay in cache); paced runs keep every
            // batch at one instant so the wall clock can follow it.
            let stepsPerVisit = pace == .max ? Self.stepsPerVisitAtFullSpeed : 1
            return try await runLanes { [partition] shard, shards in
                RandomWalkLane(
                    plan: plan, first: partition.firstDevice(ofShard: shard, shards: shards),
                    stride: partition.deviceStride(shards: shards), filter: filter, stepsPerVisit: stepsPerVisit)
            }
        case .playback(let plan):
            let filter = filter
            return try await runLanes { [partition] shard, shards in
                PlaybackLane(
                    plan: plan, first: partition.firstDevice(ofShard: shard, shards: shards),
                    stride: partition.deviceStride(shards: shards), filter: filter)
            }
        case .samples(let input):
            var reader = SampleStreamRouter(
                input: input, shardCount: outputs.count, batchSize: batchSize, pace: pace, filter: filter, seed: seed,
                stop: stop, partition: partition, clock: clock)
            return try await reader.run { [outputs] batch, shard in try await outputs[shard].send(batch) }
        }
    }

    /// Runs one lane per shard in parallel: lanes are independent, so generation uses every core too.
    private func runLanes<Lane: SampleLane>(
        _ makeLane: @escaping @Sendable (_ shard: Int, _ shards: Int) -> Lane
    ) async throws -> SourceSummary {
        let shardCount = outputs.count
        let batchSize = batchSize
        let pace = pace
        let clock = clock
        let stop = stop
        let outputs = outputs
        return try await withThrowingTaskGroup(of: SourceSummary.self) { group in
            for shard in 0..<shardCount {
                group.addTask {
                    var lane = makeLane(shard, shardCount)
                    var pacer = Pacer(pace: pace, clock: clock)
                    _ = pacer.delay(until: lane.pacingTime.microseconds)  // the origin: the lane's first sample
                    var summary = SourceSummary()
                    while !lane.isFinished && stop?.isRequested != true {
                        // Paced, a batch holds only the samples already due, so no sample enters before its moment.
                        let limit = pacer.simulatedNow() ?? .max
                        if pacer.isPaced && lane.pacingTime.microseconds > limit {
                            try await pacer.wait(until: lane.pacingTime.microseconds, stop: stop)
                            continue
                        }
                        var batch = LocationBatch(capacity: batchSize)
                        _ = lane.fill(&batch, capacity: batchSize, upTo: limit)
                        // An empty batch is only worth sending at the end, for its final watermark.
                        guard !batch.isEmpty || lane.isFinished else { continue }
                        summary.noteTimes(of: batch)
                        try await outputs[shard].send(batch)
                    }
                    summary.filtered = lane.filteredCount
                    summary.read = summary.samples + summary.filtered
                    return summary
                }
            }
            var total = SourceSummary()
            for try await summary in group { total.merge(summary) }
            return total
        }
    }
}
