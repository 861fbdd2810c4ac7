import Foundation
import GeofenceFormats
import GeofenceKit
import LocationRouter

/// The options of what a run writes: events, the webhook, the report, state snapshots, and how it stops.
extension RunOption {
    static let outputs: [RunOption] = [
        .value("--events", "<path|->", key: "events", OptionRule.anyText.orNull, help: [
            "Write events as NDJSON to a file, or '-' for standard output.",
        ]) { $0.events = $1 },
        .flag("--no-events", key: nil, help: [
            "Count events without writing them (overrides --events).",
        ]) { scenario, _ in scenario.events = nil },
        .value("--webhook", "<url>", key: "sinks.webhook.url", .webhookURL, help: [
            "Also POST events to an http(s) URL, in JSON-array batches, with retries;",
            "each event ends delivered (2xx) or in the dead-letter file.",
        ]) { $0.webhookURL = $1 },
        .value("--dead-letter", "<path>", key: "sinks.webhook.deadLetter", OptionRule.anyText.orNull, help: [
            "Where undeliverable webhook batches go (default:", "webhook-dead-letter.ndjson).",
        ]) { $0.webhook.deadLetter = $1 },
        .value(nil, nil, key: "sinks.webhook.batchSize", .integer(1...100_000), help: []) { $0.webhook.batchSize = $1 },
        .value(nil, nil, key: "sinks.webhook.concurrency", .integer(1...256), help: []) { $0.webhook.concurrency = $1 },
        .value(nil, nil, key: "sinks.webhook.maxAttempts", .integer(1...100), help: []) { $0.webhook.maxAttempts = $1 },
        .value(nil, nil, key: "sinks.webhook.linger", .nonNegative(max: 60), help: []) { $0.webhook.linger = $1 },
        .value(nil, nil, key: "sinks.webhook.timeout", .positive(max: 3_600), help: []) { $0.webhook.timeout = $1 },
        .value(nil, nil, key: "sinks.webhook.gracePeriod", .nonNegative(max: 3_600), help: []) {
            $0.webhook.gracePeriod = $1
        },
        .value("--report", "<path|->", key: "report", OptionRule.anyText.orNull, help: [
            "Write the JSON report to a file, or '-' for standard output. A regular",
            "file is replaced atomically; a device or FIFO is written in place.",
        ]) { $0.report = $1 },
        .flag("--no-report", key: nil, help: [
            "Write no JSON report (overrides --report and config.json's \"report\").",
        ]) { scenario, _ in
            scenario.report = nil
        },
        htmlPage,
        .value("--state", "<path>", key: "state.path", OptionRule.anyText.orNull, help: [
            "Save device state at the end; restore it at the start when it exists.",
        ]) { $0.statePath = $1 },
        .value("--snapshot-interval", "<s>", key: "state.interval", .nonNegative(max: 86_400), errorName: "<seconds>", help: [
            "Also save the state every <s> wall-clock seconds.",
        ]) { $0.snapshotInterval = $1 },
        .value("--drain-timeout", "<s>", key: nil, .within(0.1...86_400, message: "must be 0.1...86400"), errorName: "<seconds>", help: [
            "After SIGINT/SIGTERM/SIGHUP, seconds the drain may take before a partial",
            "report is written and the run exits (default 30).",
        ]) { $0.drainTimeout = $1 },
    ]
}

extension OptionRule where Value == String {
    /// An http(s) URL a webhook can post to, checked once, here, for the flag and the key alike.
    static var webhookURL: OptionRule {
        OptionRule(expected: "an http(s) URL", parse: { url in
            do {
                _ = try WebhookConfiguration(url: url)
                return .success(url)
            } catch {
                return .failure(OptionRejection(message: "\(error)", detailsOnCommandLine: true))
            }
        })
    }
}
