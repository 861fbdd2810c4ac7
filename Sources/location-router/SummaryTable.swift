import Foundation
import GeofenceKit
import LocationRouter

/// The short human summary printed at the end of a run.
struct SummaryTable {
    let report: RunReport
    let eventsDestination: String?

    /// The rows come from the report's table of fields (``RunReport/summaryRows(eventsDestination:)``).
    var text: String {
        let r = report
        var text = r.interrupted ? "Interrupted: the figures cover the samples read until then.\n" : ""
        text += "LocationRouter \(r.version): profile \(r.profile), seed \(r.seed), \(r.shards) shard\(r.shards == 1 ? "" : "s")\n"
        for row in r.summaryRows(eventsDestination: eventsDestination) {
            text += "  " + row.label.padding(toLength: 12, withPad: " ", startingAt: 0) + row.text + "\n"
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
func grouped(_ value: Int) -> String { SummaryFormat.grouped(value) }

/// A number with `places` decimals.
func decimal(_ value: Double, _ places: Int) -> String { SummaryFormat.decimal(value, places) }
