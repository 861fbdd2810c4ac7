import GeofenceKit

private func grouped(_ value: Int) -> String { SummaryFormat.grouped(value) }
private func decimal(_ value: Double, _ places: Int) -> String { SummaryFormat.decimal(value, places) }
private typealias Field = ReportField

extension RunReport {
    /// Every key of the JSON report, in report order, with its threshold metrics and summary row (see
    /// ``ReportField``). A new metric is one entry here.
    static let fields: [ReportField] = counts + flow + identity + extras

    private static let latencyNames = milliseconds(LatencyHistogram()).map(\.name)

    /// What the run did: devices, samples, events, rejections, latency.
    private static let counts: [ReportField] = [
        Field.count("devices") { $0.devices }.summarized(10, "devices") { r, _ in grouped(r.devices) },
        Field.count("regions") { $0.regions }.summarized(20, "regions") { r, _ in
            "\(grouped(r.regions)) (\(grouped(r.monitoredRegions)) monitored)"
        },
        Field.count("monitoredRegions") { $0.monitoredRegions },
        Field.count("samples") { $0.samples },
        Field.count("filtered") { $0.filtered },
        Field.count("updates") { $0.updates }.summarized(30, "updates") { r, _ in
            "\(grouped(r.updates)) in \(decimal(r.wallSeconds, 2)) s, \(decimal(r.simulatedSeconds, 0)) s simulated"
        },
        Field.measure("wallSeconds") { $0.wallSeconds },
        Field.measure("simulatedSeconds") { $0.simulatedSeconds },
        Field.measure("updatesPerSecond") { $0.updatesPerSecond.rounded() }.summarized(40, "throughput") { r, _ in
            // Rounded as the report's numbers are, so the two say the same.
            "\(grouped(Int(r.updatesPerSecond.rounded()))) updates/s, "
                + "\(grouped(Int(r.eventsPerSecond.rounded()))) events/s"
        },
        Field.measure("eventsPerSecond") { $0.eventsPerSecond.rounded() },
        Field.counts("events", EventKind.allCases.map(\.description)) { $0.events }.summarized(50, "events") { r, _ in
            // `visit` only when there are visits (`--visits`), so other runs' summaries read as before.
            let kinds = EventKind.allCases.filter { $0 != .visit || (r.events[$0.description] ?? 0) > 0 }
                .map { "\($0) \(grouped(r.events[$0.description] ?? 0))" }
            return "\(grouped(r.eventsEmitted))  " + kinds.joined(separator: " · ")
        },
        Field.counts("failed", FailureReason.allCases.map(\.description)) { $0.failures }.summarized(70, "failed") { r, _ in
            let failures = r.failures.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            return failures.isEmpty ? nil : failures.map { "\($0.key) \(grouped($0.value))" }.joined(separator: " · ")
        },
        Field.counts("suppressed", ["background"]) { $0.suppressed }.summarized(60, "suppressed") { r, _ in
            guard let background = r.suppressed["background"], background > 0 else { return nil }
            return "\(grouped(background)) in the background (whenInUse)"
        },
        Field.count("eventsEmitted") { $0.eventsEmitted },
        Field.count("notificationsDelivered") { $0.notificationsDelivered }.summarized(80, "delivered") { r, events in
            let destination = switch events {
            // A merged report's events went where each partition sent them.
            case nil where r.origin.merged != nil: "by the partitions"
            case nil: "counted, not written"
            case "-": "to stdout"
            case let path?: "to \(path)"
            }
            return "\(grouped(r.notificationsDelivered)) \(destination), dropped \(r.dropped)"
        },
        Field.count("dropped") { $0.dropped },
        Field.counts("rejected", SampleRejection.allCases.map(\.rawValue)) { $0.rejected }.summarized(90, "rejected") { r, _ in
            let rejected = r.rejected.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key) \(grouped($0.value))" }
            return "\(grouped(r.rejectedTotal))" + (rejected.isEmpty ? "" : "  " + rejected.joined(separator: " · "))
        },
        Field("inputErrors") { r in "[" + r.inputErrors.map { $0.json(includingFile: true) }.joined(separator: ",") + "]" },
        latencyField,
    ]

    private static let latencyField: ReportField = {
        var field = Field("latencyMs") { r in Field.object(r.latencyMilliseconds.map { ($0.name, Field.number($0.value)) }) }
        field.metrics = [("latencyMs", latencyNames)]
        field.value = { r, path in r.latencyMilliseconds.first { "latencyMs." + $0.name == path }?.value }
        return field.summarized(100, "latency ms") { r, _ in
            r.latencyMilliseconds.map { "\($0.name == "p999" ? "p99.9" : $0.name) \(decimal($0.value, 3))" }
                .joined(separator: " · ")
        }
    }()

    /// How the pipeline fared: memory, back-pressure, shards.
    private static let flow: [ReportField] = [
        Field.count("peakResidentBytes") { $0.peakResidentBytes }.summarized(120, "peak memory") { r, _ in
            "\(decimal(Double(r.peakResidentBytes) / 1_048_576, 1)) MiB"
        },
        Field.count("backPressureWaits") { $0.backPressureWaits },
        Field.count("peakBatchesInFlight") { $0.peakBatchesInFlight },
        Field.count("batchCapacity") { $0.batchCapacity },
        Field.count("shards") { $0.shards },
    ]

    /// What run this is: profile, seed, version, whether it finished, its accounting and origin.
    private static let identity: [ReportField] = [
        Field("profile") { EventEncoder.jsonLiteral($0.profile) },
        Field("seed") { String($0.seed) },
        Field("version") { EventEncoder.jsonLiteral($0.version) },
        Field("interrupted") { $0.interrupted ? "true" : "false" },
        Field("accounting") { r in
            Field.object([
                ("samplesRead", String(r.samplesRead)), ("evaluated", String(r.updates)),
                ("rejected", String(r.rejectedTotal)), ("filtered", String(r.filtered)),
                ("eventsEmitted", String(r.eventsEmitted)), ("delivered", String(r.notificationsDelivered)),
                ("deadLettered", String(r.webhook?.deadLettered ?? 0)), ("balanced", r.isBalanced ? "true" : "false"),
            ])
        },
        Field(members: { $0.originPairs }),
    ]
}
