import GeofenceKit

/// Where the samples of a run come from.
public enum SourceKind: Sendable {
    /// A seeded random walk of generated devices.
    case randomWalk(RandomWalkPlan)
    /// Samples decoded from a byte stream (standard input or a file).
    case samples(SampleInput)
}

/// What the source produced and refused.
public struct SourceSummary: Sendable {
    /// Samples sent on to the monitors.
    public var samples = 0
    /// Samples refused at the source, by reason (malformed lines, invalid fields, out-of-order times, …).
    public var rejected: [SampleRejection: Int] = [:]
    /// The first input errors, with their lines, for the user to see.
    public var inputErrors: [InputError] = []
    /// The earliest and latest sample times sent.
    public var firstTime: Int64 = .max
    public var lastTime: Int64 = .min

    mutating func merge(_ other: SourceSummary) {
        samples += other.samples
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
/// Device `d` goes to shard `d % shardCount`. Before each send the source takes a credit from that shard's
/// ``CreditGate``, so it never runs more than the gate's capacity ahead of a monitor. When the input ends it
/// finishes every shard's stream, which lets the later stages drain.
public actor LocationSource {
    private let kind: SourceKind
    private let outputs: [AsyncStream<LocationBatch>.Continuation]
    private let credits: [CreditGate]
    private let batchSize: Int
    private let pace: Pace

    public init(
        kind: SourceKind, outputs: [AsyncStream<LocationBatch>.Continuation], credits: [CreditGate],
        batchSize: Int, pace: Pace
    ) {
        precondition(outputs.count == credits.count && !outputs.isEmpty, "one gate per shard")
        self.kind = kind
        self.outputs = outputs
        self.credits = credits
        self.batchSize = max(1, batchSize)
        self.pace = pace
    }

    /// Produces every sample, then finishes the shards' streams (also when it throws).
    public func run() async throws -> SourceSummary {
        defer { for output in outputs { output.finish() } }
        switch kind {
        case .randomWalk(let plan):
            return try await walk(plan)
        case .samples(let input):
            var reader = SampleStreamRouter(
                input: input, shardCount: outputs.count, batchSize: batchSize, pace: pace)
            return try await reader.run(send: send)
        }
    }

    /// Sends `batch` to shard `shard` once it has a credit.
    private nonisolated func send(_ batch: LocationBatch, to shard: Int) async throws {
        try await credits[shard].acquire()
        outputs[shard].yield(batch)
    }

    /// Walks every shard's devices in parallel: lanes are independent, so generation uses every core too.
    private func walk(_ plan: RandomWalkPlan) async throws -> SourceSummary {
        let shardCount = outputs.count
        let batchSize = batchSize
        let pace = pace
        return try await withThrowingTaskGroup(of: SourceSummary.self) { group in
            for shard in 0..<shardCount {
                group.addTask {
                    var lane = RandomWalkLane(plan: plan, first: shard, stride: shardCount)
                    var pacer = Pacer(pace: pace)
                    var summary = SourceSummary()
                    while true {
                        try await pacer.wait(until: lane.nextTime.microseconds)
                        var batch = LocationBatch(capacity: batchSize)
                        guard lane.fill(&batch, capacity: batchSize), !batch.isEmpty else { break }
                        summary.noteTimes(of: batch)
                        try await self.send(batch, to: shard)
                    }
                    return summary
                }
            }
            var total = SourceSummary()
            for try await summary in group { total.merge(summary) }
            return total
        }
    }
}
