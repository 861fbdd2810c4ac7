import GeofenceKit

/// How one monitoring profile's events diverge from a baseline's (the `exact` profile's) for the same input:
/// the divergence report of `location-router run --compare-profiles`.
///
/// Transitions (`enter`, `exit`, `dwell`) are matched per (device, region, kind), both sides in time order:
/// 1. a profile event matches the earliest unmatched baseline event of its key that is at most `matchWindow`
///    seconds older and not newer than it (a profile may report a transition late);
/// 2. then, for what is left on both sides, a profile event that is earlier than every remaining baseline event
///    of its key matches the earliest one that is at most `matchWindow` seconds newer: an `early` match, with a
///    negative delay. Late matches have the priority: an early one only pairs events that would otherwise be
///    missed and added.
///
/// Unmatched baseline events are `missed`, unmatched profile events `added`. `state` and `failed` events are
/// compared as counts only. Cost: O(n log n) time (one sort per side and kind) and O(n) memory.
public struct ProfileComparison: Sendable, Equatable {
    /// The distribution of `profile.time − baseline.time` over matched pairs, in seconds (exact, not bucketed:
    /// quantiles are nearest-rank). All `nil` when nothing matched.
    public struct Delays: Sendable, Equatable {
        public var mean: Double?
        /// The most negative delay (the earliest early report), or the smallest lateness.
        public var min: Double?
        public var p50: Double?
        public var p90: Double?
        public var p99: Double?
        public var max: Double?

        public init(mean: Double? = nil, min: Double? = nil, p50: Double? = nil, p90: Double? = nil, p99: Double? = nil, max: Double? = nil) {
            self.mean = mean
            self.min = min
            self.p50 = p50
            self.p90 = p90
            self.p99 = p99
            self.max = max
        }

        /// The statistics of `sorted` (microseconds, ascending).
        init(sortedMicroseconds sorted: [Int64]) {
            guard let first = sorted.first, let last = sorted.last else { return }
            func seconds(_ microseconds: Int64) -> Double { Double(microseconds) / 1_000_000 }
            func quantile(_ fraction: Double) -> Double {
                let rank = Swift.max(1, Int((Double(sorted.count) * fraction).rounded(.up)))
                return seconds(sorted[Swift.min(rank, sorted.count) - 1])
            }
            var sum = 0.0
            for value in sorted { sum += Double(value) }
            mean = sum / Double(sorted.count) / 1_000_000
            min = seconds(first)
            p50 = quantile(0.5)
            p90 = quantile(0.9)
            p99 = quantile(0.99)
            max = seconds(last)
        }
    }

    /// The comparison of one kind of transition (or of all three).
    public struct Tally: Sendable, Equatable {
        /// Events of the baseline and of the profile.
        public var baseline = 0
        public var profile = 0
        /// Pairs: one baseline event and one profile event taken as the same transition.
        public var matched = 0
        /// Matched pairs whose profile event is later than the baseline's (delay > 0).
        public var delayed = 0
        /// Matched pairs whose profile event is earlier than the baseline's (delay < 0).
        public var early = 0
        public var delays = Delays()

        /// Baseline events the profile did not report (within the window).
        public var missed: Int { baseline - matched }
        /// Profile events the baseline did not report (within the window).
        public var added: Int { profile - matched }

        public init() {}
    }

    /// How many events of a kind each side reported.
    public struct Counts: Sendable, Equatable {
        public var baseline = 0
        public var profile = 0
        public init(baseline: Int = 0, profile: Int = 0) {
            self.baseline = baseline
            self.profile = profile
        }
    }

    /// The transition kinds that are matched event by event, in report order.
    public static let matchedKinds: [EventKind] = [.enter, .exit, .dwell]

    /// The compared profile's name, and the baseline's.
    public var profile: String
    public var baselineName: String
    /// Seconds a profile event may be later (or, as a fallback, earlier) than its baseline event.
    public var matchWindow: Double
    public var enter = Tally()
    public var exit = Tally()
    public var dwell = Tally()
    /// The three transition kinds together (its delays are over every matched pair).
    public var total = Tally()
    public var state = Counts()
    public var failed = Counts()
    public var visit = Counts()
    /// The profile's delivery delays (``DeliveryDelay``): `time − detectedAt` over its events that carry
    /// `detectedAt`, in seconds; all `nil` when its events are delivered at once.
    public var delivery = Delays()
    /// How many of the profile's events were delivered late (carry `detectedAt`).
    public var deliveredLate = 0
    /// `failed` events by platform error code, ascending codes.
    public var failedByCode: [FailedCode] = []

    /// How many `failed` events with one error code each side reported.
    public struct FailedCode: Sendable, Equatable {
        public var code: Int32
        public var baseline: Int
        public var profile: Int
        public init(code: Int32, baseline: Int, profile: Int) {
            self.code = code
            self.baseline = baseline
            self.profile = profile
        }
    }

    /// The tally of `kind` (`enter`, `exit` or `dwell`); `nil` for kinds compared as counts only.
    public func tally(_ kind: EventKind) -> Tally? {
        switch kind {
        case .enter: enter
        case .exit: exit
        case .dwell: dwell
        case .state, .failed, .visit: nil
        }
    }

    /// Compares `events` of profile `name` with `baseline`; both in any order.
    /// - Parameter matchWindow: seconds (≥ 0) a profile event may be late and still be the same transition.
    public init(
        baseline: [GeofenceEvent], profile events: [GeofenceEvent], name: String,
        matchWindow: Double = 600, baselineName: String = "exact"
    ) {
        self.profile = name
        self.baselineName = baselineName
        self.matchWindow = matchWindow
        let window = Self.microseconds(matchWindow)

        let base = Split(baseline)
        let other = Split(events)
        var allDelays: [Int64] = []
        for kind in Self.matchedKinds {
            let (tally, delays) = Self.match(base.transitions[kind.rawValue], other.transitions[kind.rawValue], window: window)
            switch kind {
            case .enter: enter = tally
            case .exit: exit = tally
            default: dwell = tally
            }
            total.baseline += tally.baseline
            total.profile += tally.profile
            total.matched += tally.matched
            total.delayed += tally.delayed
            total.early += tally.early
            allDelays += delays
        }
        allDelays.sort()
        total.delays = Delays(sortedMicroseconds: allDelays)

        state = Counts(baseline: base.states, profile: other.states)
        visit = Counts(baseline: base.visits, profile: other.visits)
        deliveredLate = other.deliveryDelays.count
        delivery = Delays(sortedMicroseconds: other.deliveryDelays.sorted())
        failed = Counts(baseline: base.failedByCode.values.reduce(0, +), profile: other.failedByCode.values.reduce(0, +))
        let codes = Set(base.failedByCode.keys).union(other.failedByCode.keys).sorted()
        failedByCode = codes.map { FailedCode(code: $0, baseline: base.failedByCode[$0] ?? 0, profile: other.failedByCode[$0] ?? 0) }
    }

    /// Compares every profile with `baseline`, in the given order.
    public static func compare(
        baseline: [GeofenceEvent], profiles: [(name: String, events: [GeofenceEvent])],
        matchWindow: Double = 600, baselineName: String = "exact"
    ) -> [ProfileComparison] {
        profiles.map {
            ProfileComparison(baseline: baseline, profile: $0.events, name: $0.name, matchWindow: matchWindow, baselineName: baselineName)
        }
    }

    // MARK: - Matching

    /// One transition reduced to its matching key (device and region in one word) and time.
    struct Entry {
        var key: UInt64
        var time: Int64

        init(_ event: GeofenceEvent) {
            key = UInt64(UInt32(bitPattern: event.device)) << 32 | UInt64(UInt32(bitPattern: event.region))
            time = event.time.microseconds
        }
    }

    /// One side's events: transitions per kind sorted by (device, region, time), and the counted kinds.
    private struct Split {
        var transitions: [[Entry]] = Array(repeating: [], count: EventKind.allCases.count)
        var states = 0
        var visits = 0
        var failedByCode: [Int32: Int] = [:]
        /// `time − detectedAt` of the events delivered late, in microseconds.
        var deliveryDelays: [Int64] = []

        init(_ events: [GeofenceEvent]) {
            for event in events {
                if let detected = event.detectedAt { deliveryDelays.append(event.time.microseconds - detected.microseconds) }
                switch event.kind {
                case .enter, .exit, .dwell: transitions[event.kind.rawValue].append(Entry(event))
                case .state: states += 1
                case .failed: failedByCode[event.code, default: 0] += 1
                case .visit: visits += 1
                }
            }
            for kind in ProfileComparison.matchedKinds {
                transitions[kind.rawValue].sort { $0.key != $1.key ? $0.key < $1.key : $0.time < $1.time }
            }
        }
    }

    /// A window in whole microseconds, clamped to [0, 10¹⁷] (NaN → 0) so that it converts and never overflows.
    static func microseconds(_ seconds: Double) -> Int64 {
        guard seconds > 0 else { return 0 }
        return Int64((Swift.min(seconds, 1e11) * 1_000_000).rounded())
    }

    /// Matches two sequences of one kind sorted by (key, time): a merge join on the key, then the two passes per
    /// key. Returns the tally and the matched delays in microseconds, sorted.
    static func match(_ base: [Entry], _ other: [Entry], window: Int64) -> (Tally, [Int64]) {
        var tally = Tally()
        tally.baseline = base.count
        tally.profile = other.count
        var delays: [Int64] = []
        delays.reserveCapacity(Swift.min(base.count, other.count))
        var baseMatched = [Bool](repeating: false, count: base.count)
        var otherMatched = [Bool](repeating: false, count: other.count)

        var i = 0, j = 0
        while i < base.count && j < other.count {
            let key = base[i].key
            if key < other[j].key {
                while i < base.count && base[i].key == key { i += 1 }
                continue
            }
            if key > other[j].key {
                let otherKey = other[j].key
                while j < other.count && other[j].key == otherKey { j += 1 }
                continue
            }
            var baseEnd = i
            while baseEnd < base.count && base[baseEnd].key == key { baseEnd += 1 }
            var otherEnd = j
            while otherEnd < other.count && other[otherEnd].key == key { otherEnd += 1 }

            // Pass 1, late (or simultaneous) reports: the earliest unmatched baseline event in [t − window, t].
            // Baseline events are consumed in order: the ones skipped are too old for every later profile event.
            var b = i
            for p in j..<otherEnd {
                let time = other[p].time
                while b < baseEnd && time - base[b].time > window { b += 1 }
                if b < baseEnd && base[b].time <= time {
                    baseMatched[b] = true
                    otherMatched[p] = true
                    delays.append(time - base[b].time)
                    b += 1
                }
            }
            // Pass 2, early reports, among what is left: the earliest unmatched baseline event in (t, t + window].
            // (No unmatched baseline event is in [t − window, t] of an unmatched profile event after pass 1.)
            b = i
            for p in j..<otherEnd where !otherMatched[p] {
                let time = other[p].time
                while b < baseEnd && (baseMatched[b] || base[b].time <= time) { b += 1 }
                if b < baseEnd && base[b].time - time <= window {
                    baseMatched[b] = true
                    otherMatched[p] = true
                    delays.append(time - base[b].time)
                    b += 1
                }
            }
            i = baseEnd
            j = otherEnd
        }

        tally.matched = delays.count
        for delay in delays {
            if delay > 0 { tally.delayed += 1 } else if delay < 0 { tally.early += 1 }
        }
        delays.sort()
        tally.delays = Delays(sortedMicroseconds: delays)
        return (tally, delays)
    }
}
