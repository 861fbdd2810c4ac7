import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

/// Threshold expressions: what parses, what does not and why, and how they judge a report.
@Suite struct ThresholdTests {
    /// A report with known figures: 2 s of wall time, 1,000,000 updates (500,000/s), latency 1.757 ms (max 22.434).
    static func report(webhook: WebhookStatistics? = nil) -> RunReport {
        var latency = LatencyHistogram()
        latency.record(1_757_000, times: 999)
        latency.record(22_434_000)
        return RunReport(
            devices: 100, regions: 2_000, monitoredRegions: 2_000, samples: 1_000_010, filtered: 10,
            updates: 1_000_000, wallSeconds: 2, simulatedSeconds: 600,
            events: ["enter": 120, "exit": 110, "dwell": 0, "state": 0, "failed": 3],
            failures: ["tooManyRegions": 3], suppressed: ["background": 0], eventsEmitted: 233,
            notificationsDelivered: 233, dropped: 0, rejected: ["outOfOrder": 2], inputErrors: [], latency: latency,
            peakResidentBytes: 52_428_800, shards: 2, profile: "exact", seed: 42, backPressureWaits: 5,
            peakBatchesInFlight: 8, batchCapacity: 16, version: "test", webhook: webhook)
    }

    @Test(arguments: [
        ("latencyMs.p99 < 5", "latencyMs.p99", Threshold.Operator.less, 5.0, "latencyMs.p99 < 5"),
        ("updatesPerSecond > 1000000", "updatesPerSecond", .greater, 1_000_000, "updatesPerSecond > 1000000"),
        ("dropped == 0", "dropped", .equal, 0, "dropped == 0"),
        ("events.enter >= 100", "events.enter", .greaterOrEqual, 100, "events.enter >= 100"),
        ("rejected.outOfOrder != 0", "rejected.outOfOrder", .notEqual, 0, "rejected.outOfOrder != 0"),
        ("  latencyMs.max<=25.5 ", "latencyMs.max", .lessOrEqual, 25.5, "latencyMs.max <= 25.5"),
        ("eventsPerSecond>1e6", "eventsPerSecond", .greater, 1e6, "eventsPerSecond > 1e6"),
        ("failed.tooManyRegions < -0.5", "failed.tooManyRegions", .less, -0.5, "failed.tooManyRegions < -0.5"),
        ("suppressed.background == 0", "suppressed.background", .equal, 0, "suppressed.background == 0"),
        ("peakResidentBytes < .5e9", "peakResidentBytes", .less, 5e8, "peakResidentBytes < .5e9"),
        ("webhook.deadLettered == 0", "webhook.deadLettered", .equal, 0, "webhook.deadLettered == 0"),
        ("webhook.latencyMs.p99 < 250", "webhook.latencyMs.p99", .less, 250, "webhook.latencyMs.p99 < 250"),
    ])
    func goodExpressionsParse(text: String, metric: String, comparison: Threshold.Operator, limit: Double, normalized: String) throws {
        let threshold = try Threshold(parsing: text)
        #expect(threshold.metric.path == metric)
        #expect(threshold.comparison == comparison)
        #expect(threshold.limit == limit)
        #expect(threshold.description == normalized)
    }

    @Test(arguments: [
        ("", "empty expression"),
        ("   ", "empty expression"),
        ("< 5", "expected a metric before \"< 5\""),
        ("latencyMs.p98 < 5", "unknown metric \"latencyMs.p98\" (known: devices, "),
        ("latencyMs < 5", "unknown metric \"latencyMs\""),
        ("events.teleport > 0", "unknown metric \"events.teleport\""),
        ("seed > 0", "unknown metric \"seed\""),
        ("latencyMs.p99 = 5", "expected an operator (< <= > >= == !=) after \"latencyMs.p99\", found \"=\""),
        ("latencyMs.p99 =< 5", "found \"=<\""),
        ("latencyMs.p99 5", "found \"5\""),
        ("latencyMs.p99", "found the end"),
        ("latencyMs.p99 <", "expected a number after \"<\", found the end"),
        ("latencyMs.p99 < five", "expected a number after \"<\", found \"five\""),
        ("latencyMs.p99 < 5ms", "found \"5ms\""),
        ("latencyMs.p99 < 0x10", "found \"0x10\""),
        ("latencyMs.p99 < inf", "found \"inf\""),
        ("latencyMs.p99 < 1e999", "1e999 is too large for a number"),
        ("latencyMs.p99 < 5 ms", "unexpected \"ms\" after the number"),
        ("dropped == 0 && updates > 0", "unexpected \"&& updates > 0\""),
    ])
    func badExpressionsSayWhatIsWrong(text: String, message: String) {
        #expect {
            try Threshold(parsing: text)
        } throws: { error in
            (error as? ThresholdError)?.message.contains(message) == true
        }
    }

    @Test func theUnknownMetricMessageListsEveryGroup() {
        let summary = ThresholdMetric.knownSummary
        for part in [
            "updatesPerSecond", "eventsPerSecond", "dropped", "latencyMs.p50|p90|p99|p999|max",
            "events.enter|exit|dwell|state|failed", "rejected.malformed|", "|outOfOrder",
            "failed.tooManyRegions|denied|radiusTooLarge", "suppressed.background", "peakResidentBytes",
            "webhook.delivered|deliveredRequests|retries|deadLettered|failedRequests|lost",
        ] {
            #expect(summary.contains(part), "\(part)")
        }
        // Every known metric is a number of the JSON report of a run with a webhook.
        var report = Self.report(webhook: WebhookStatistics())
        report.thresholds = []
        // A scored run that drove a target has every score and target metric too.
        let crossing = ScoredEvent(device: "d", region: "r", kind: .enter, time: Timestamp(microseconds: 0))
        // (Delivered late, so the delivery and detection metrics have values too.)
        var delivered = crossing
        delivered.detectedAt = crossing.time
        delivered.time = Timestamp(microseconds: 1_000_000)
        report.score = EventMatcher().score(truth: [crossing], events: [delivered])
        var target = TargetStatistics(score: report.score!)
        target.latencyMs = [("p50", 1), ("p90", 2), ("p95", 3), ("p99", 4), ("max", 5)]
        report.target = target
        // And a run with a shared catalog, its selection and coverage.
        report.selection = SelectionReport(strategy: .nearest, summary: SelectionSummary(refreshes: 1, deviceSeconds: 60))
        report.coverage = CoverageSummary(transitions: 4, caught: 3, late: 1)
        var delivery = DeliveryStatistics()
        delivery.delayed = 1
        delivery.histogram.record(180_000_000)
        report.delivery = delivery
        let json = try? JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
        for path in ThresholdMetric.known {
            var value: Any? = json
            for key in path.split(separator: ".") { value = (value as? [String: Any])?[String(key)] }
            #expect(value is NSNumber, "\(path)")
        }
    }

    @Test(arguments: [
        ("latencyMs.p99 < 5", true, 1.757),
        ("latencyMs.p99 < 1.757", false, 1.757),
        ("latencyMs.p99 <= 1.757", true, 1.757),
        ("latencyMs.max >= 22.434", true, 22.434),
        ("updatesPerSecond > 1000000", false, 500_000),
        ("updatesPerSecond == 500000", true, 500_000),
        ("eventsPerSecond == 117", true, 117),  // 233 events / 2 s = 116.5, a whole number in the report
        ("dropped == 0", true, 0),
        ("events.enter >= 100", true, 120),
        ("events.dwell > 0", false, 0),
        ("failed.tooManyRegions != 0", true, 3),
        ("failed.denied == 0", true, 0),
        ("rejected.outOfOrder == 0", false, 2),
        ("rejected.malformed == 0", true, 0),
        ("peakResidentBytes < 100000000", true, 52_428_800),
        ("wallSeconds <= 2", true, 2),
        ("shards == 2", true, 2),
    ])
    func thresholdsJudgeTheReport(text: String, passed: Bool, value: Double) throws {
        let result = try Threshold(parsing: text).evaluate(Self.report())
        #expect(result.value == value)
        #expect(result.passed == passed)
        #expect(result.metric == text.prefix { $0 != " " }.description)
        #expect(result.expression == text)
    }

    @Test func webhookMetricsFailWithoutAWebhookAndAreReadWithOne() throws {
        let threshold = try Threshold(parsing: "webhook.deadLettered == 0")
        let without = threshold.evaluate(Self.report())
        #expect(without.value == nil)
        #expect(!without.passed)
        #expect(without.line == "✗ webhook.deadLettered == 0 (no value: not in this run's report)")
        #expect(without.json.contains("\"value\":null,\"passed\":false"))

        var statistics = WebhookStatistics()
        statistics.delivered = 233
        statistics.deadLettered = 0
        statistics.latency.record(40_000_000)
        let with = Self.report(webhook: statistics)
        #expect(threshold.evaluate(with).passed)
        #expect(try Threshold(parsing: "webhook.delivered == 233").evaluate(with).passed)
        #expect(try Threshold(parsing: "webhook.latencyMs.max == 40").evaluate(with).passed)
    }

    @Test func resultsPrintAsALineAndAsJSON() throws {
        let report = Self.report()
        let pass = try Threshold(parsing: "latencyMs.p99<5").evaluate(report)
        let fail = try Threshold(parsing: "updatesPerSecond > 20000000").evaluate(report)
        #expect(pass.line == "✓ latencyMs.p99 < 5 (was 1.757)")
        #expect(fail.line == "✗ updatesPerSecond > 20000000 (was 500000)")
        #expect(pass.json == #"{"expression":"latencyMs.p99 < 5","metric":"latencyMs.p99","value":1.757,"passed":true}"#)
        #expect(fail.json == #"{"expression":"updatesPerSecond > 20000000","metric":"updatesPerSecond","value":500000,"passed":false}"#)
        // A metric compared unrounded is shown as compared, not to three decimals that contradict the verdict.
        let unrounded = ThresholdResult(
            expression: "coverage.ratio > 0.99034", metric: "coverage.ratio", value: 0.990343, passed: true)
        #expect(unrounded.line == "✓ coverage.ratio > 0.99034 (was 0.990343)")
        #expect(unrounded.json.contains(#""value":0.990343,"#))
    }

    @Test func theReportGainsAThresholdsArrayAfterEveryOtherKey() throws {
        var report = Self.report()
        #expect(!report.json.contains("\"thresholds\""))
        let before = report.json.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()
        report.thresholds = [try Threshold(parsing: "dropped == 0").evaluate(report)]
        let after = report.json
        #expect(after.hasPrefix(before + #","thresholds":[{"expression":"dropped == 0""#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [String: Any])
        let thresholds = try #require(object["thresholds"] as? [[String: Any]])
        #expect(thresholds.count == 1)
        #expect(thresholds[0]["metric"] as? String == "dropped")
        #expect(thresholds[0]["value"] as? Int == 0)
        #expect(thresholds[0]["passed"] as? Bool == true)
    }
}
