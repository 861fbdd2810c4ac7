import Foundation
import GeofenceKit
import LocationRouter

/// The short human summary printed at the end of a run.
struct SummaryTable {
    let report: RunReport
    let eventsDestination: String?

    var text: String {
        let r = report
        let kinds = EventKind.allCases.map { "\($0) \(grouped(r.events[$0.description] ?? 0))" }
        let rejected = r.rejected.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            .map { "\($0.key) \(grouped($0.value))" }
        let latency = r.latencyMilliseconds.map { "\($0.name == "p999" ? "p99.9" : $0.name) \(decimal($0.value, 3))" }
        let destination = switch eventsDestination {
        case nil: "counted, not written"
        case "-": "to stdout"
        case let path?: "to \(path)"
        }
        var rows: [(String, String)] = [
            ("devices", grouped(r.devices)),
            ("regions", "\(grouped(r.regions)) (\(grouped(r.monitoredRegions)) monitored)"),
            ("updates", "\(grouped(r.updates)) in \(decimal(r.wallSeconds, 2)) s, \(decimal(r.simulatedSeconds, 0)) s simulated"),
            ("throughput", "\(grouped(Int(r.updatesPerSecond))) updates/s, \(grouped(Int(r.eventsPerSecond))) events/s"),
            ("events", "\(grouped(r.eventsEmitted))  " + kinds.joined(separator: " · ")),
            ("delivered", "\(grouped(r.notificationsDelivered)) \(destination), dropped \(r.dropped)"),
            ("rejected", "\(grouped(r.rejectedTotal))" + (rejected.isEmpty ? "" : "  " + rejected.joined(separator: " · "))),
            ("latency ms", latency.joined(separator: " · ")),
            ("peak memory", "\(decimal(Double(r.peakResidentBytes) / 1_048_576, 1)) MiB"),
        ]
        let failures = r.failures.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        if !failures.isEmpty {
            let line = failures.map { "\($0.key) \(grouped($0.value))" }.joined(separator: " · ")
            rows.insert(("failed", line), at: 5)
        }
        if let background = r.suppressed["background"], background > 0 {
            rows.insert(("suppressed", "\(grouped(background)) in the background (whenInUse)"), at: 5)
        }
        if let webhook = r.webhook {
            var line = "\(grouped(webhook.delivered)) delivered in \(grouped(webhook.deliveredRequests)) requests"
            line += ", \(grouped(webhook.retries)) retries, \(grouped(webhook.deadLettered)) dead-lettered"
            if webhook.lost > 0 { line += ", \(grouped(webhook.lost)) LOST" }
            rows.insert(("webhook", line), at: rows.count - 1)
        }
        var text = r.interrupted ? "Interrupted: the figures cover the samples read until then.\n" : ""
        text += "LocationRouter \(r.version): profile \(r.profile), seed \(r.seed), \(r.shards) shard\(r.shards == 1 ? "" : "s")\n"
        for (name, value) in rows {
            text += "  " + name.padding(toLength: 12, withPad: " ", startingAt: 0) + value + "\n"
        }
        return text
    }
}

extension SummaryTable {
    /// The thresholds' outcome: a heading, then `✓ latencyMs.p99 < 5 (was 1.757)` per threshold.
    static func thresholds(_ results: [ThresholdResult], onlyFailed: Bool) -> String {
        let failed = results.filter { !$0.passed }.count
        var text = failed == 0
            ? "Thresholds: all \(results.count) met\n"
            : "Thresholds: \(failed) of \(results.count) not met\n"
        for result in results where !(onlyFailed && result.passed) {
            text += "  " + result.line + "\n"
        }
        return text
    }
}

/// `1234567` → `1,234,567`.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (i, digit) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}

/// A number with `places` decimals.
func decimal(_ value: Double, _ places: Int) -> String {
    String(format: "%.\(places)f", value)
}
