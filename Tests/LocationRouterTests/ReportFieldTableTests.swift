import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

/// The report's table of fields: every metric a threshold can name is in the JSON report with the value the
/// threshold sees, and the summary's rows come from the same table.
struct ReportFieldTableTests {
    static func report() -> RunReport {
        var webhook = WebhookStatistics()
        webhook.delivered = 230
        webhook.deliveredRequests = 12
        webhook.retries = 3
        webhook.deadLettered = 3
        webhook.failedRequests = 4
        webhook.latency.record(41_000_000, times: 12)
        var report = ThresholdTests.report(webhook: webhook)
        report.selection = SelectionReport(
            strategy: .nearest, summary: SelectionSummary(refreshes: 40, added: 90, removed: 90, deviceSeconds: 7_200))
        report.coverage = CoverageSummary(transitions: 300, caught: 291, late: 12, unmatched: 2)
        var delivery = DeliveryStatistics()
        delivery.delayed = 40
        delivery.heldBack = 3
        delivery.histogram.record(180_000_000, times: 40)
        report.delivery = delivery
        return report
    }

    /// The number at a dotted path of the JSON report (`webhook.latencyMs.p99`).
    static func number(at path: String, in json: [String: Any]) -> Double? {
        var node: Any = json
        for part in path.split(separator: ".") {
            guard let object = node as? [String: Any], let next = object[String(part)] else { return nil }
            node = next
        }
        return (node as? NSNumber)?.doubleValue
    }

    @Test func everyThresholdMetricIsInTheJSONReportWithTheValueTheThresholdSees() throws {
        let report = Self.report()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        // Score and target metrics need a scored run (tested in ScoreCommandTests and TargetRunTests).
        let paths = ThresholdMetric.known.filter { !$0.hasPrefix("score.") && !$0.hasPrefix("target.") }
        #expect(paths.count > 40)
        for path in paths {
            let metric = try #require(ThresholdMetric(path: path))
            let seen = try #require(metric.value(in: report), "no value for \(path)")
            let written = try #require(Self.number(at: path, in: json), "\(path) missing from the JSON report")
            #expect(seen == written, "\(path)")
        }
    }

    @Test func everyThresholdPathBelongsToAFieldThatWritesIt() {
        let keys = Set(RunReport.fields.flatMap { $0.json(Self.report()) }.map(\.0))
        for path in ThresholdMetric.known {
            let top = String(path.split(separator: ".")[0])
            #expect(keys.contains(top) || top == "score" || top == "target", "\(path)")
        }
        #expect(ThresholdMetric.known.contains("score.recall"))
        #expect(ThresholdMetric.known.contains("target.latencyMs.p99"))
    }

    @Test func theSummaryRowsComeFromTheFieldsInTheirOwnOrder() {
        var report = Self.report()
        report.suppressed = ["background": 4]
        let rows = report.summaryRows(eventsDestination: "-")
        #expect(rows.map(\.label) == [
            "devices", "regions", "updates", "throughput", "events", "suppressed", "delivery", "failed", "delivered",
            "rejected", "latency ms", "selection", "coverage", "webhook", "peak memory",
        ])
        // 90 removed over 7,200 device-seconds: 45 a device-hour.
        #expect(rows.first { $0.label == "selection" }?.text == "nearest · 40 refreshes · 90 added · 90 removed · 45.0 swaps per device-hour")
        #expect(rows.first { $0.label == "delivered" }?.text == "233 to stdout, dropped 0")
        #expect(rows.first { $0.label == "webhook" }?.text == "230 delivered in 12 requests, 3 retries, 3 dead-lettered")
        // Why attempts failed, when one did.
        report.webhook?.lastFailure = "HTTP 503"
        #expect(
            report.summaryRows(eventsDestination: "-").first { $0.label == "webhook" }?.text
                == "230 delivered in 12 requests, 3 retries, 3 dead-lettered (last failure: HTTP 503)")
    }

    @Test func rowsWithNothingToSayAreLeftOut() {
        var report = ThresholdTests.report()
        report.failures = [:]
        report.selection = SelectionReport(strategy: .fileOrder, summary: SelectionSummary(deviceSeconds: 60))
        let labels = report.summaryRows(eventsDestination: nil).map(\.label)
        #expect(!labels.contains("failed") && !labels.contains("suppressed") && !labels.contains("webhook"))
        // A fileOrder run (with --coverage) has a selection object and nothing to say of it.
        #expect(!labels.contains("selection"))
    }

    @Test func theReportIsItsMembersAsOneObject() {
        let report = Self.report()
        #expect(RunReport.jsonObject(report.jsonMembers) == report.json)
        let extended = RunReport.jsonObject(report.jsonMembers + [(key: "extra", json: "1")])
        #expect(extended.hasSuffix(",\"extra\":1}\n"))
    }
}
