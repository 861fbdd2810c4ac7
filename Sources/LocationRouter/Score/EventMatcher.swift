import GeofenceKit

/// Matches events one-to-one to the truth and scores them: the rule behind `location-router score` and `--score`.
///
/// An event matches a truth event of the same device, region and kind (`enter` or `exit`) when it is at or after
/// it and at most `tolerance` seconds later (an event up to ``earlySlack`` before it also counts, for times rounded
/// to the millisecond). Per (device, region, kind), truth events are taken earliest first and each takes the
/// earliest unmatched event in its window: since every window has the same length, this pairs as many events as
/// any rule can. Then, from the last pair back, a matched event moves to the latest unmatched truth event after
/// its own that is not later than the event was decided (its `detectedAt`, else its time): an event answers the
/// latest crossing before its decision that no other event answers. Of a pass-through the system never saw (an
/// enter and an exit between two samples) and the crossing it did report, the pass-through is the one missed, and
/// the latency is the report's. The count is the same.
///
/// Unmatched truth events are `missed`, unmatched events `spurious`; a spurious event that falls in the window of
/// a matched truth event of its key (the latest one at or before it) repeats a reported transition and is also
/// counted as a `duplicate`. Latency is event time − truth time over matched pairs. Cost: O(n log n).
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
            let truthTimes = truthOrder.map { truth[$0].time.microseconds }
            let eventTimes = eventOrder.map { events[$0].time.microseconds }
            // Another system's file may say it decided after it delivered: the event's time bounds it.
            let decided = eventOrder.map {
                min(events[$0].detectedAt ?? events[$0].time, events[$0].time).microseconds
            }
            let partner = Self.partners(
                truthTimes: truthTimes, eventTimes: eventTimes, decided: decided, window: window)
            var isMatched = [Bool](repeating: false, count: eventOrder.count)
            for (k, partner) in partner.enumerated() {
                guard let partner else {
                    missed.append(truth[truthOrder[k]])
                    continue
                }
                isMatched[partner] = true
                delays.append(eventTimes[partner] - truthTimes[k])
                pairs.append((truthOrder[k], eventOrder[partner]))
                tally.matched += 1
            }
            // A repeat: inside the window of the latest matched truth event at or before it.
            var latest: Int64?
            var k = 0
            for (e, time) in eventTimes.enumerated() where !isMatched[e] {
                while k < truthTimes.count && truthTimes[k] - Self.earlySlack <= time {
                    if partner[k] != nil { latest = truthTimes[k] }
                    k += 1
                }
                spurious.append(events[eventOrder[e]])
                if let latest, time <= latest + window { tally.duplicates += 1 }
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

    /// The matching of one key's truth events and events (their times, each sorted; `decided`: when each event was
    /// decided, at or before its time): for each truth event, the position of its event, or `nil` when it is
    /// missed. `window`: the tolerance in microseconds.
    static func partners(truthTimes: [Int64], eventTimes: [Int64], decided: [Int64], window: Int64) -> [Int?] {
        var partner = [Int?](repeating: nil, count: truthTimes.count)
        // As many pairs as any rule can make: truth events earliest first, each taking the earliest event left in
        // its window (events before a window are left for good: later windows start later).
        var next = 0
        for (k, time) in truthTimes.enumerated() {
            while next < eventTimes.count && eventTimes[next] < time - earlySlack { next += 1 }
            if next < eventTimes.count && eventTimes[next] <= time + window {
                partner[k] = next
                next += 1
            }
        }
        // From the last pair back, an event moves to the latest of the unmatched truth events right after its own
        // that are not later than its decision: it fits their windows too (they start no earlier than its own, and
        // no later than the event).
        for k in truthTimes.indices.reversed() {
            guard let event = partner[k] else { continue }
            var latest = k
            while latest + 1 < truthTimes.count, partner[latest + 1] == nil,
                truthTimes[latest + 1] - earlySlack <= decided[event]
            {
                latest += 1
            }
            if latest != k { (partner[k], partner[latest]) = (nil, event) }
        }
        return partner
    }

    /// The earliest `listed` events, in a deterministic order.
    private static func first(_ events: [ScoredEvent]) -> [ScoredEvent] {
        Array(events.sorted { ($0.time, $0.device, $0.region, $0.kind.rawValue) < ($1.time, $1.device, $1.region, $1.kind.rawValue) }.prefix(listed))
    }
}
