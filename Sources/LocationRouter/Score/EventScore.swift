import GeofenceKit

/// How right a set of events is against the truth: recall, precision, what was missed or invented, and how late
/// the rest came (see ``EventMatcher`` for the rule).
public struct EventScore: Sendable, Equatable {
    /// Counts of one kind (or of both).
    public struct Tally: Sendable, Equatable {
        public var truth = 0
        public var events = 0
        public var matched = 0
        /// Spurious events that repeat a matched transition (in its window).
        public var duplicates = 0

        public init(truth: Int = 0, events: Int = 0, matched: Int = 0, duplicates: Int = 0) {
            self.truth = truth
            self.events = events
            self.matched = matched
            self.duplicates = duplicates
        }

        public var missed: Int { truth - matched }
        public var spurious: Int { events - matched }
        /// matched / truth; 1 when there is no truth (nothing to miss).
        public var recall: Double { truth == 0 ? 1 : Double(matched) / Double(truth) }
        /// matched / events; 1 when there are no events (nothing invented).
        public var precision: Double { events == 0 ? 1 : Double(matched) / Double(events) }

        mutating func add(_ other: Tally) {
            truth += other.truth
            events += other.events
            matched += other.matched
            duplicates += other.duplicates
        }
    }

    /// Event time − truth time over matched pairs, in seconds (nearest-rank quantiles); `nil` when nothing matched.
    public struct Latency: Sendable, Equatable {
        public var p50: Double?
        public var p90: Double?
        public var p95: Double?
        public var p99: Double?
        public var max: Double?
        public var mean: Double?

        public init() {}

        init(sortedMicroseconds sorted: [Int64]) {
            guard let last = sorted.last else { return }
            func quantile(_ fraction: Double) -> Double {
                let rank = Swift.max(1, Int((Double(sorted.count) * fraction).rounded(.up)))
                return Double(sorted[Swift.min(rank, sorted.count) - 1]) / 1e6
            }
            p50 = quantile(0.5)
            p90 = quantile(0.9)
            p95 = quantile(0.95)
            p99 = quantile(0.99)
            max = Double(last) / 1e6
            mean = sorted.reduce(0.0) { $0 + Double($1) } / Double(sorted.count) / 1e6
        }

        /// The quantiles by name, in report order.
        public var named: [(name: String, value: Double?)] {
            [("p50", p50), ("p90", p90), ("p95", p95), ("p99", p99), ("max", max), ("mean", mean)]
        }
    }

    /// The matching window, in seconds.
    public var tolerance: Double
    public var total = Tally()
    public var enter = Tally()
    public var exit = Tally()
    /// Events read but not scored (`dwell`, `state`, `failed`, unknown kinds).
    public var ignored = 0
    public var latency = Latency()
    /// Over matched events delivered late (that carry `detectedAt`): their delivery delay (event − detectedAt) and
    /// how late the platform decided them (detectedAt − truth); `nil` when no matched event carries `detectedAt`.
    public var delivery: Latency?
    public var detection: Latency?
    /// The earliest missed truth events and spurious events, at most ``EventMatcher/listed`` of each.
    public var firstMissed: [ScoredEvent] = []
    public var firstSpurious: [ScoredEvent] = []

    public init(tolerance: Double) {
        self.tolerance = tolerance
    }

    /// The metrics a threshold can test, by their path in ``json``: `recall`, `latencySeconds.p99`,
    /// `byKind.enter.missed`, …
    public static let metricPaths: [String] = {
        let counts = ["truth", "events", "matched", "recall", "precision", "missed", "spurious", "duplicates"]
        let quantiles = ["p50", "p90", "p95", "p99", "max", "mean"]
        return counts + ["ignored"] + quantiles.map { "latencySeconds." + $0 }
            + ["enter", "exit"].flatMap { kind in counts.map { "byKind.\(kind).\($0)" } }
            + quantiles.map { "deliverySeconds." + $0 } + quantiles.map { "detectionSeconds." + $0 }
    }()

    /// The value at a path of ``metricPaths``, unrounded; `nil` for an unknown path or a latency without matches.
    public func value(at path: String) -> Double? {
        let parts = path.hasPrefix("byKind.")
            ? path.dropFirst("byKind.".count).split(separator: ".", maxSplits: 1).map(String.init)
            : path.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            switch parts[0] {
            case "latencySeconds": return latency.named.first { $0.name == parts[1] }?.value ?? nil
            case "deliverySeconds": return delivery?.named.first { $0.name == parts[1] }?.value ?? nil
            case "detectionSeconds": return detection?.named.first { $0.name == parts[1] }?.value ?? nil
            case "enter": return Self.value(of: enter, parts[1])
            case "exit": return Self.value(of: exit, parts[1])
            default: return nil
            }
        }
        return path == "ignored" ? Double(ignored) : Self.value(of: total, path)
    }

    private static func value(of tally: Tally, _ name: String) -> Double? {
        switch name {
        case "truth": Double(tally.truth)
        case "events": Double(tally.events)
        case "matched": Double(tally.matched)
        case "recall": tally.recall
        case "precision": tally.precision
        case "missed": Double(tally.missed)
        case "spurious": Double(tally.spurious)
        case "duplicates": Double(tally.duplicates)
        default: nil
        }
    }
}
