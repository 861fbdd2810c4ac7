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

        init(_ event: ScoredEvent) {
            device = event.device
            region = event.region
            kind = event.kind
        }
    }

    public func score(truth: [ScoredEvent], events: [ScoredEvent], ignored: Int = 0) -> EventScore {
        match(truth: truth, events: events, ignored: ignored).score
    }

    /// Scores like ``score(truth:events:ignored:)`` and also returns the matched pairs, as indices into `truth` and
    /// `events` (for latencies measured on another clock).
    public func match(truth: [ScoredEvent], events: [ScoredEvent], ignored: Int = 0)
        -> (score: EventScore, pairs: [(truth: Int, event: Int)])
    {
        var groups: [Key: (truth: [Int], events: [Int])] = [:]
        for (i, event) in truth.enumerated() { groups[Key(event), default: ([], [])].truth.append(i) }
        for (i, event) in events.enumerated() { groups[Key(event), default: ([], [])].events.append(i) }
        let window = Int64((tolerance * 1e6).rounded())

        var score = EventScore(tolerance: tolerance)
        score.ignored = ignored
        var pairs: [(truth: Int, event: Int)] = []
        var delays: [Int64] = []
        var missed: [ScoredEvent] = []
        var spurious: [ScoredEvent] = []
        for (key, group) in groups {
            // Sorted by time; ties keep input order.
            let truthOrder = group.truth.sorted { (truth[$0].time, $0) < (truth[$1].time, $1) }
            let eventOrder = group.events.sorted { (events[$0].time, $0) < (events[$1].time, $1) }
            var tally = EventScore.Tally(truth: truthOrder.count, events: eventOrder.count)
            var lastMatched: Int64?
            var next = 0
            func unmatched(_ index: Int) {
                let time = events[index].time.microseconds
                spurious.append(events[index])
                // A repeat: inside the window of the latest matched truth event that could have taken it.
                if let last = lastMatched, time >= last - Self.earlySlack, time <= last + window { tally.duplicates += 1 }
            }
            for index in truthOrder {
                let time = truth[index].time.microseconds
                while next < eventOrder.count && events[eventOrder[next]].time.microseconds < time - Self.earlySlack {
                    unmatched(eventOrder[next])
                    next += 1
                }
                if next < eventOrder.count && events[eventOrder[next]].time.microseconds <= time + window {
                    delays.append(events[eventOrder[next]].time.microseconds - time)
                    pairs.append((index, eventOrder[next]))
                    lastMatched = time
                    tally.matched += 1
                    next += 1
                } else {
                    missed.append(truth[index])
                }
            }
            while next < eventOrder.count {
                unmatched(eventOrder[next])
                next += 1
            }
            score.total.add(tally)
            if key.kind == .enter { score.enter.add(tally) } else { score.exit.add(tally) }
        }
        score.latency = EventScore.Latency(sortedMicroseconds: delays.sorted())
        var delivery: [Int64] = [], detection: [Int64] = []
        for (t, e) in pairs {
            guard let decided = events[e].detectedAt else { continue }
            delivery.append(events[e].time.microseconds - decided.microseconds)
            detection.append(decided.microseconds - truth[t].time.microseconds)
        }
        if !delivery.isEmpty {
            score.delivery = EventScore.Latency(sortedMicroseconds: delivery.sorted())
            score.detection = EventScore.Latency(sortedMicroseconds: detection.sorted())
        }
        score.firstMissed = Self.first(missed)
        score.firstSpurious = Self.first(spurious)
        return (score, pairs)
    }

    /// The earliest `listed` events, in a deterministic order.
    private static func first(_ events: [ScoredEvent]) -> [ScoredEvent] {
        Array(events.sorted { ($0.time, $0.device, $0.region, $0.kind.rawValue) < ($1.time, $1.device, $1.region, $1.kind.rawValue) }.prefix(listed))
    }
}
