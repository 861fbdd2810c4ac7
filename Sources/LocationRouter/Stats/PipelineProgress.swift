import Synchronization

/// Live counters a caller can read while a run is going on (for a progress line); the monitors add to them
/// once per batch.
public final class PipelineProgress: Sendable {
    private let updatesCounter = Atomic<Int>(0)
    private let eventsCounter = Atomic<Int>(0)

    public init() {}

    public var updates: Int { updatesCounter.load(ordering: .relaxed) }
    public var events: Int { eventsCounter.load(ordering: .relaxed) }

    func add(updates: Int, events: Int) {
        updatesCounter.add(updates, ordering: .relaxed)
        eventsCounter.add(events, ordering: .relaxed)
    }
}
