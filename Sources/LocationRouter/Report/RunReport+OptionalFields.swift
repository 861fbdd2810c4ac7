import GeofenceKit

private typealias Field = ReportField

extension RunReport {
    /// The keys a report has only when the run had the feature: webhook, snapshots, score, target, thresholds.
    static let extras: [ReportField] = [
        webhookField,
        Field("sinkFailure") { $0.sinkFailure.map(EventEncoder.jsonLiteral) },
        Field("stoppedBy") { $0.stoppedBy.map(EventEncoder.jsonLiteral) },
        Field("snapshots") { r in
            r.snapshots.map { Field.object([("saved", String($0.saved)), ("failed", String($0.failed))]) }
        },
        selectionField,
        coverageField,
        deliveryField,
        scoreField,
        targetField,
        Field("thresholds") { r in r.thresholds.map { "[" + $0.map(\.json).joined(separator: ",") + "]" } },
        Field(members: { $0.recording?.jsonPairs ?? [] }),
    ]

    private static let webhookCounts: [(name: String, value: @Sendable (WebhookStatistics) -> Int)] = [
        ("delivered", { $0.delivered }), ("deliveredRequests", { $0.deliveredRequests }), ("retries", { $0.retries }),
        ("deadLettered", { $0.deadLettered }), ("failedRequests", { $0.failedRequests }), ("lost", { $0.lost }),
    ]

    private static let webhookField: ReportField = {
        var field = Field("webhook") { r in
            r.webhook.map { webhook in
                Field.object(
                    webhookCounts.map { ($0.name, String($0.value(webhook))) } + [
                        ("lastFailure", webhook.lastFailure.map(EventEncoder.jsonLiteral) ?? "null"),
                        ("latencyMs", Field.object(milliseconds(webhook.latency).map { ($0.name, Field.number($0.value)) })),
                        ("latencyBuckets", webhook.latency.json),
                    ])
            }
        }
        field.metrics = [
            ("webhook", webhookCounts.map(\.name)), ("webhook.latencyMs", milliseconds(LatencyHistogram()).map(\.name)),
        ]
        field.value = { r, path in
            guard let webhook = r.webhook else { return nil }
            let rest = path.dropFirst("webhook.".count)
            if let count = webhookCounts.first(where: { $0.name == rest }) { return Double(count.value(webhook)) }
            guard rest.hasPrefix("latencyMs.") else { return nil }
            return milliseconds(webhook.latency).first { $0.name == rest.dropFirst("latencyMs.".count) }?.value
        }
        return field.summarized(110, "webhook") { r, _ in
            guard let webhook = r.webhook else { return nil }
            var line = "\(SummaryFormat.grouped(webhook.delivered)) delivered in "
                + "\(SummaryFormat.grouped(webhook.deliveredRequests)) requests"
            line += ", \(SummaryFormat.grouped(webhook.retries)) retries, "
                + "\(SummaryFormat.grouped(webhook.deadLettered)) dead-lettered"
            if webhook.lost > 0 { line += ", \(SummaryFormat.grouped(webhook.lost)) LOST" }
            if let last = webhook.lastFailure { line += " (last failure: \(last))" }
            return line
        }
    }()

    /// `delivery.delayed`, `delivery.heldBack`, `delivery.delaySeconds.p50`, …: only when events were delivered late.
    private static let deliveryField: ReportField = {
        let quantiles = DeliveryStatistics.quantiles
        var field = Field("delivery") { r in
            r.delivery.map { delivery in
                Field.object([
                    ("delayed", String(delivery.delayed)), ("heldBack", String(delivery.heldBack)),
                    ("delaySeconds", Field.object(quantiles.map { ($0.name, delivery.seconds($0.fraction).map(Field.number) ?? "null") })),
                    // The delays' histogram (microseconds), which a merge adds up.
                    ("delayBuckets", delivery.histogram.json),
                ])
            }
        }
        field.metrics = [("delivery", ["delayed", "heldBack"]), ("delivery.delaySeconds", quantiles.map(\.name))]
        field.value = { r, path in
            guard let delivery = r.delivery else { return nil }
            switch path {
            case "delivery.delayed": return Double(delivery.delayed)
            case "delivery.heldBack": return Double(delivery.heldBack)
            default:
                let name = path.dropFirst("delivery.delaySeconds.".count)
                return quantiles.first { $0.name == name }.flatMap { delivery.seconds($0.fraction) }
            }
        }
        return field.summarized(65, "delivery") { r, _ in
            guard let delivery = r.delivery else { return nil }
            let seconds = quantiles.filter { ["p50", "p95", "max"].contains($0.name) }.map { quantile in
                "\(quantile.name) \(delivery.seconds(quantile.fraction).map(format3) ?? "–") s"
            }
            return seconds.joined(separator: " · ")
                + " (\(SummaryFormat.grouped(delivery.delayed)) delayed, \(SummaryFormat.grouped(delivery.heldBack)) held back)"
        }
    }()

    /// `score.recall`, … : ratios, which thresholds see unrounded.
    private static let scoreField: ReportField = {
        var field = Field("score") { $0.score?.json }
        field.metrics = [("score", EventScore.metricPaths)]
        field.value = { r, path in r.score?.value(at: String(path.dropFirst("score.".count))) }
        field.exact = true
        return field
    }()

    private static let targetField: ReportField = {
        var field = Field("target") { $0.target?.json }
        field.metrics = [
            ("target", TargetStatistics.countNames), ("target.score", EventScore.metricPaths),
            ("target.latencyMs", TargetStatistics.latencyNames),
        ]
        field.value = { r, path in r.target?.value(at: String(path.dropFirst("target.".count))) }
        field.exact = true
        return field
    }()
}
