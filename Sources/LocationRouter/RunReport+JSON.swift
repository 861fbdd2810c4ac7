import GeofenceKit

extension RunReport {
    /// The JSON report (`--report`): one object, keys in a fixed order, as INTERFACES.md lists them.
    public var json: String {
        func number(_ value: Double) -> String {
            value.isFinite ? String(format3(value)) : "null"
        }
        func object(_ pairs: [(String, String)]) -> String {
            "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        let eventCounts = EventKind.allCases.map { ($0.description, String(events[$0.description] ?? 0)) }
        let rejectedCounts = SampleRejection.allCases.map { ($0.rawValue, String(rejected[$0.rawValue] ?? 0)) }
        let latency = latencyMilliseconds.map { ($0.name, number($0.value)) }
        let errors = inputErrors.map { $0.json(includingFile: true) }
        var pairs: [(String, String)] = [
            ("devices", String(devices)),
            ("regions", String(regions)),
            ("monitoredRegions", String(monitoredRegions)),
            ("samples", String(samples)),
            ("filtered", String(filtered)),
            ("updates", String(updates)),
            ("wallSeconds", number(wallSeconds)),
            ("simulatedSeconds", number(simulatedSeconds)),
            ("updatesPerSecond", number(updatesPerSecond.rounded())),
            ("eventsPerSecond", number(eventsPerSecond.rounded())),
            ("events", object(eventCounts)),
            ("failed", object(FailureReason.allCases.map { ($0.description, String(failures[$0.description] ?? 0)) })),
            ("suppressed", object([("background", String(suppressed["background"] ?? 0))])),
            ("eventsEmitted", String(eventsEmitted)),
            ("notificationsDelivered", String(notificationsDelivered)),
            ("dropped", String(dropped)),
            ("rejected", object(rejectedCounts)),
            ("inputErrors", "[" + errors.joined(separator: ",") + "]"),
            ("latencyMs", object(latency)),
            ("peakResidentBytes", String(peakResidentBytes)),
            ("backPressureWaits", String(backPressureWaits)),
            ("peakBatchesInFlight", String(peakBatchesInFlight)),
            ("batchCapacity", String(batchCapacity)),
            ("shards", String(shards)),
            ("profile", EventEncoder.jsonLiteral(profile)),
            ("seed", String(seed)),
            ("version", EventEncoder.jsonLiteral(version)),
            ("interrupted", interrupted ? "true" : "false"),
            ("accounting", object([
                ("samplesRead", String(samplesRead)), ("evaluated", String(updates)),
                ("rejected", String(rejectedTotal)), ("filtered", String(filtered)),
                ("eventsEmitted", String(eventsEmitted)), ("delivered", String(notificationsDelivered)),
                ("deadLettered", String(webhook?.deadLettered ?? 0)), ("balanced", isBalanced ? "true" : "false"),
            ])),
        ]
        pairs += originPairs
        if let webhook {
            let deliveries: [(String, String)] = [
                ("delivered", String(webhook.delivered)),
                ("deliveredRequests", String(webhook.deliveredRequests)),
                ("retries", String(webhook.retries)),
                ("deadLettered", String(webhook.deadLettered)),
                ("failedRequests", String(webhook.failedRequests)),
                ("lost", String(webhook.lost)),
                ("latencyMs", object(Self.milliseconds(webhook.latency).map { ($0.name, number($0.value)) })),
                ("latencyBuckets", webhook.latency.json),
            ]
            pairs.append(("webhook", object(deliveries)))
        }
        if let sinkFailure { pairs.append(("sinkFailure", EventEncoder.jsonLiteral(sinkFailure))) }
        if let stoppedBy { pairs.append(("stoppedBy", EventEncoder.jsonLiteral(stoppedBy))) }
        if let snapshots {
            pairs.append(("snapshots", object([("saved", String(snapshots.saved)), ("failed", String(snapshots.failed))])))
        }
        if let score { pairs.append(("score", score.json)) }
        if let target { pairs.append(("target", target.json)) }
        if let thresholds {
            pairs.append(("thresholds", "[" + thresholds.map(\.json).joined(separator: ",") + "]"))
        }
        if let recording { pairs += recording.jsonPairs }
        return object(pairs) + "\n"
    }
}

/// A number with at most three decimals, without a trailing `.0` on whole numbers.
func format3(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return String(rounded)
}

extension InputError {
    /// `{"file":…,"line":…,"column":…,"message":"field: message"}`, unknown parts as `null`.
    public func json(includingFile: Bool) -> String {
        var text = "{"
        if includingFile { text += "\"file\":\(file.map(EventEncoder.jsonLiteral) ?? "null")," }
        text += "\"line\":\(line.map(String.init) ?? "null"),\"column\":\(column.map(String.init) ?? "null"),"
        text += "\"message\":\(EventEncoder.jsonLiteral(field.map { "\($0): \(message)" } ?? message))}"
        return text
    }
}
