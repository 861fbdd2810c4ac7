import GeofenceKit

/// A number of the run report that a threshold can test, named by its dotted path in the JSON report
/// (`updatesPerSecond`, `latencyMs.p99`, `events.enter`, `webhook.deadLettered`, …).
public struct ThresholdMetric: Sendable, Hashable, CustomStringConvertible {
    /// The dotted path, as in the JSON report.
    public let path: String

    /// The metric at `path`, or `nil` when the report has no number there.
    public init?(path: String) {
        guard Self.known.contains(path) else { return nil }
        self.path = path
    }

    /// The metric at `path` among `known` paths (of a report other than the run's).
    public init?(path: String, known: [String]) {
        guard known.contains(path) else { return nil }
        self.path = path
    }

    public var description: String { path }

    /// The metric's value in `report`, as the JSON report shows it: rates as whole numbers, everything else to
    /// three decimals. `nil` when the report has no such value (webhook metrics of a run without a webhook).
    public func value(in report: RunReport) -> Double? {
        let field = RunReport.fields.first { field in
            field.metrics.contains { path == $0.prefix || path.hasPrefix($0.prefix + ".") }
        }
        guard let field, let raw = field.value?(report, path) else { return nil }
        // Scores are ratios that a threshold such as `score.recall >= 0.999` must see unrounded.
        return field.exact ? raw : Self.asReported(raw)
    }

    /// Every metric path, in report order.
    public static let known: [String] = groups.flatMap { group in
        group.members.isEmpty ? [group.prefix] : group.members.map { group.prefix + "." + $0 }
    }

    /// The known metrics in a short form for messages: `events.enter|exit|…`, one entry per group.
    public static var knownSummary: String {
        groups.map { $0.members.isEmpty ? $0.prefix : $0.prefix + "." + $0.members.joined(separator: "|") }
            .joined(separator: ", ")
    }

    /// The metrics, grouped by their first path components, from the report's table of fields.
    private static let groups = RunReport.fields.flatMap(\.metrics)

    /// Rounded to three decimals, as the JSON report writes numbers.
    static func asReported(_ value: Double) -> Double {
        guard value.isFinite, value != value.rounded() else { return value }
        return (value * 1000).rounded() / 1000
    }
}
