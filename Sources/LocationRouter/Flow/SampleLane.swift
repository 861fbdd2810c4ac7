import GeofenceKit

/// A producer of one shard's samples that the source drives: the random walk and trace playback.
public protocol SampleLane: Sendable {
    /// Appends up to `capacity - batch.count` samples whose ``pacingTime`` is at most `limit` (microseconds;
    /// `Int64.max` at full speed); returns `false` once the lane has nothing more.
    mutating func fill(_ batch: inout LocationBatch, capacity: Int, upTo limit: Int64) -> Bool
    var isFinished: Bool { get }
    /// The simulated time the next samples belong to.
    var nextTime: Timestamp { get }
    /// When the next batch should enter the pipeline, in simulated time: `nextTime`, or later within a time step
    /// whose devices all report at the same instant, so that a paced run sends a steady stream, not one burst
    /// per step (as real devices' reports arrive spread over the second). Sample times are not changed.
    var pacingTime: Timestamp { get }
    /// Samples the source filters suppressed so far.
    var filteredCount: Int { get }
}

extension RandomWalkLane: SampleLane {}
extension PlaybackLane: SampleLane {
    public var pacingTime: Timestamp { nextTime }
}
