import GeofenceKit
import Synchronization

/// Live counters a caller can read while a run is going on (for a progress line); the monitors add to them
/// once per batch.
public final class PipelineProgress: Sendable {
    private let updatesCounter = Atomic<Int>(0)
    private let eventsCounter = Atomic<Int>(0)
    private let latestTimeValue = Atomic<Int64>(.min)
    private let spanStart = Atomic<Int64>(.min)
    private let spanEnd = Atomic<Int64>(.min)

    public init() {}

    public var updates: Int { updatesCounter.load(ordering: .relaxed) }
    public var events: Int { eventsCounter.load(ordering: .relaxed) }
    /// The latest sample time evaluated so far (about: the last of each batch), `nil` before the first batch.
    public var latestTime: Timestamp? {
        let value = latestTimeValue.load(ordering: .relaxed)
        return value == .min ? nil : Timestamp(microseconds: value)
    }

    /// The sample times the run will cover, when the source knows them in advance (random walk, playback);
    /// `nil` for a stream.
    public var expectedSpan: (start: Timestamp, end: Timestamp)? {
        let start = spanStart.load(ordering: .relaxed)
        let end = spanEnd.load(ordering: .relaxed)
        guard start != .min, end != .min else { return nil }
        return (Timestamp(microseconds: start), Timestamp(microseconds: end))
    }

    func expect(_ span: (start: Timestamp, end: Timestamp)?) {
        guard let span else { return }
        spanStart.store(span.start.microseconds, ordering: .relaxed)
        spanEnd.store(span.end.microseconds, ordering: .relaxed)
    }

    func add(updates: Int, events: Int, latestTime: Int64? = nil) {
        updatesCounter.add(updates, ordering: .relaxed)
        eventsCounter.add(events, ordering: .relaxed)
        if let latestTime { latestTimeValue.max(latestTime, ordering: .relaxed) }
    }
}
