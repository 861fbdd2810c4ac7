import GeofenceKit

/// A producer of one shard's samples that the source drives: the random walk and trace playback.
public protocol SampleLane: Sendable {
    /// Appends up to `capacity - batch.count` samples; returns `false` once the lane has nothing more.
    mutating func fill(_ batch: inout LocationBatch, capacity: Int) -> Bool
    var isFinished: Bool { get }
    /// The simulated time the next samples belong to (for pacing).
    var nextTime: Timestamp { get }
    /// Samples the source filters suppressed so far.
    var filteredCount: Int { get }
}

extension RandomWalkLane: SampleLane {}
extension PlaybackLane: SampleLane {}
