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
        // Scores are ratios that a threshold such as `score.recall >= 0.999` must see unrounded.
        if let score = Self.scoreValue(path, in: report) { return score }
        guard let raw = Self.rawValue(path, in: report) else { return nil }
        return Self.asReported(raw)
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

    private static let latencyNames = RunReport.milliseconds(LatencyHistogram()).map(\.name)
    private static let webhookCounts = ["delivered", "deliveredRequests", "retries", "deadLettered", "failedRequests", "lost"]

    /// The metrics, grouped by their first path components (a group without members is a metric itself).
    private static let groups: [(prefix: String, members: [String])] = [
        ("devices", []), ("regions", []), ("monitoredRegions", []), ("samples", []), ("filtered", []),
        ("updates", []), ("wallSeconds", []), ("simulatedSeconds", []), ("updatesPerSecond", []),
        ("eventsPerSecond", []),
        ("events", EventKind.allCases.map(\.description)),
        ("failed", FailureReason.allCases.map(\.description)),
        ("suppressed", ["background"]),
        ("eventsEmitted", []), ("notificationsDelivered", []), ("dropped", []),
        ("rejected", SampleRejection.allCases.map(\.rawValue)),
        ("latencyMs", latencyNames),
        ("peakResidentBytes", []), ("backPressureWaits", []), ("peakBatchesInFlight", []), ("batchCapacity", []),
        ("shards", []),
        ("webhook", webhookCounts),
        ("webhook.latencyMs", latencyNames),
        ("score", EventScore.metricPaths),
    ] + scoreGroups

    private static func rawValue(_ path: String, in r: RunReport) -> Double? {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        let rest = parts.count > 1 ? parts[1] : ""
        switch parts[0] {
        case "devices": return Double(r.devices)
        case "regions": return Double(r.regions)
        case "monitoredRegions": return Double(r.monitoredRegions)
        case "samples": return Double(r.samples)
        case "filtered": return Double(r.filtered)
        case "updates": return Double(r.updates)
        case "wallSeconds": return r.wallSeconds
        case "simulatedSeconds": return r.simulatedSeconds
        case "updatesPerSecond": return r.updatesPerSecond.rounded()
        case "eventsPerSecond": return r.eventsPerSecond.rounded()
        case "events": return Double(r.events[rest] ?? 0)
        case "failed": return Double(r.failures[rest] ?? 0)
        case "suppressed": return Double(r.suppressed[rest] ?? 0)
        case "eventsEmitted": return Double(r.eventsEmitted)
        case "notificationsDelivered": return Double(r.notificationsDelivered)
        case "dropped": return Double(r.dropped)
        case "rejected": return Double(r.rejected[rest] ?? 0)
        case "latencyMs": return r.latencyMilliseconds.first { $0.name == rest }?.value
        case "peakResidentBytes": return Double(r.peakResidentBytes)
        case "backPressureWaits": return Double(r.backPressureWaits)
        case "peakBatchesInFlight": return Double(r.peakBatchesInFlight)
        case "batchCapacity": return Double(r.batchCapacity)
        case "shards": return Double(r.shards)
        case "webhook":
            guard let webhook = r.webhook else { return nil }
            switch rest {
            case "delivered": return Double(webhook.delivered)
            case "deliveredRequests": return Double(webhook.deliveredRequests)
            case "retries": return Double(webhook.retries)
            case "deadLettered": return Double(webhook.deadLettered)
            case "failedRequests": return Double(webhook.failedRequests)
            case "lost": return Double(webhook.lost)
            default:
                guard rest.hasPrefix("latencyMs.") else { return nil }
                let name = rest.dropFirst("latencyMs.".count)
                return RunReport.milliseconds(webhook.latency).first { $0.name == name }?.value
            }
        default: return nil
        }
    }

    /// Rounded to three decimals, as the JSON report writes numbers.
    static func asReported(_ value: Double) -> Double {
        guard value.isFinite, value != value.rounded() else { return value }
        return (value * 1000).rounded() / 1000
    }
}
