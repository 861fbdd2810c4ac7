import GeofenceKit

/// Matches events one-to-one to the truth and scores them: the rule behind `location-router score` and `--score`.
///
/// An event matches a truth event of the same device, region and kind (`enter` or `exit`) when it is at or after
/// it and at most `tolerance` seconds later (an event up to ``earlySlack`` before it also counts, for times rounded
/// to the millisecond). Per (device, region, kind), truth events are taken earliest first and each takes the
/// earliest unmatched event in its window: since every window has the same length, this pairs as many events as
/// any rule can.
///
/// Unmatched truth events are `missed`, unmatched events `spurious`; a spurious event that falls in the window of
/// a matched truth event of its key repeats a reported transition and is also counted as a `duplicate`. Latency is
/// event time − truth time over matched pairs. Cost: O(n log n).
public struct EventMatcher: Sendable {
    /// Seconds an event may come after its truth event (default 600).
    public var tolerance: Double
    /// How much earlier than its truth event an event may be and still match (1 ms).
    public static let earlySlack: Int64 = 1_000
    /// How many missed and spurious events the score lists.
    public static let listed = 20

    public init(tolerance: Double = 600) {
        self.tolerance = tolerance
    }

    private struct Key: Hashable {
        var device: String
        var region: String
        var kind: EventKind
    }

    public func score(truth: [ScoredEvent], events: [ScoredEvent], ignored: Int = 0) -> EventScore {
        var groups: [Key: (truth: [Int64], events: [Int64])] = [:]
        for event in truth { groups[Key(device: event.device, region: event.region, kind: event.kind), default: ([], [])].truth.append(event.time.microseconds) }
        for event in events { groups[Key(device: event.device, region: event.region, kind: event.kind), default: ([], [])].events.append(event.time.microseconds) }
        let window = Int64((tolerance * 1e6).rounded())

        var score = EventScore(tolerance: tolerance)
        score.ignored = ignored
        var delays: [Int64] = []
        var missed: [ScoredEvent] = []
        var spurious: [ScoredEvent] = []
        for (key, group) in groups {
            let truthTimes = group.truth.sorted()
            let eventTimes = group.events.sorted()
            var tally = EventScore.Tally(truth: truthTimes.count, events: eventTimes.count)
            var matchedTruth: [Int64] = []
            var next = 0
            func unmatched(_ time: Int64) {
                spurious.append(ScoredEvent(device: key.device, region: key.region, kind: key.kind, time: Timestamp(microseconds: time)))
                // A repeat: inside the window of the latest matched truth event that could have taken it.
                if let last = matchedTruth.last, time >= last - Self.earlySlack, time <= last + window { tally.duplicates += 1 }
            }
            for time in truthTimes {
                while next < eventTimes.count && eventTimes[next] < time - Self.earlySlack {
                    unmatched(eventTimes[next])
                    next += 1
                }
                if next < eventTimes.count && eventTimes[next] <= time + window {
                    delays.append(eventTimes[next] - time)
                    matchedTruth.append(time)
                    tally.matched += 1
                    next += 1
                } else {
                    missed.append(ScoredEvent(device: key.device, region: key.region, kind: key.kind, time: Timestamp(microseconds: time)))
                }
            }
            while next < eventTimes.count {
                unmatched(eventTimes[next])
                next += 1
            }
            score.total.add(tally)
            if key.kind == .enter { score.enter.add(tally) } else { score.exit.add(tally) }
        }
        score.latency = EventScore.Latency(sortedMicroseconds: delays.sorted())
        score.firstMissed = Self.first(missed)
        score.firstSpurious = Self.first(spurious)
        return score
    }

    /// The earliest `listed` events, in a deterministic order.
    private static func first(_ events: [ScoredEvent]) -> [ScoredEvent] {
        Array(events.sorted { ($0.time, $0.device, $0.region, $0.kind.rawValue) < ($1.time, $1.device, $1.region, $1.kind.rawValue) }.prefix(listed))
    }
}
