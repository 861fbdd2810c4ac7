import GeofenceKit

/// The outcome of a run: what was evaluated, what happened, how fast, and proof that nothing was lost.
public struct RunReport: Sendable {
    /// Devices that sent at least one sample.
    public var devices: Int
    /// Regions defined (in the region file, or generated for all devices).
    public var regions: Int
    /// Region registrations in use over all devices.
    public var monitoredRegions: Int
    /// Samples read (lines of a stream, or generated): each is evaluated, filtered or rejected.
    public var samplesRead: Int = 0
    /// Samples that reached the source's output, and samples evaluated by the monitors.
    public var samples: Int
    /// Samples the source's filters held back (distance filter, significant change), as a device would.
    public var filtered: Int
    public var updates: Int
    public var wallSeconds: Double
    /// The span of sample times (last − first).
    public var simulatedSeconds: Double
    /// Events by kind name.
    public var events: [String: Int]
    /// `failed` events by reason (`tooManyRegions`, `denied`, `radiusTooLarge`).
    public var failures: [String: Int]
    /// Events the platform would not deliver, by reason (`background`: a whenInUse app not in use).
    public var suppressed: [String: Int]
    public var eventsEmitted: Int
    public var notificationsDelivered: Int
    /// Events emitted but not delivered: always 0, reported so that users can check it.
    public var dropped: Int
    /// Samples refused, by reason.
    public var rejected: [String: Int]
    /// The first input errors, with their lines.
    public var inputErrors: [InputError]
    public var latency: LatencyHistogram
    public var peakResidentBytes: Int
    public var shards: Int
    public var profile: String
    public var seed: UInt64
    /// How often back-pressure held a producer back (source → monitors, monitors → dispatcher).
    public var backPressureWaits: Int
    /// The most batches that were in flight at once (summed over the hops), and the most the credits allow:
    /// memory is bounded because the first never exceeds the second.
    public var peakBatchesInFlight: Int
    public var batchCapacity: Int
    public var version: String
    /// Webhook deliveries, when events went to a webhook (set by whoever made the sink).
    public var webhook: WebhookStatistics?
    /// Whether the run was stopped early (Ctrl-C): the figures cover the samples read until then.
    public var interrupted: Bool = false
    /// The thresholds tested against this run, when any were configured (set by whoever configured them).
    public var thresholds: [ThresholdResult]? = nil
    /// Why the sink stopped accepting events, when it did: the events after that are counted in `dropped`.
    public var sinkFailure: String? = nil
    /// The signal that stopped the run early (`SIGINT`, `SIGTERM`, `SIGHUP`), when one did.
    public var stoppedBy: String? = nil
    /// Periodic state snapshots saved and failed, when the run saved state (`nil` otherwise).
    public var snapshots: (saved: Int, failed: Int)? = nil
    /// The run's events against the truth of its input (`--score`; set by whoever scored them).
    public var score: EventScore? = nil
    /// A geofence service under test, driven with the run's samples (`--target`; set by whoever drove it).
    public var target: TargetStatistics? = nil
    /// Delivery delays (`monitor.delivery`), when any event was delivered late.
    public var delivery: DeliveryStatistics? = nil
    /// Time series, latency distribution and map for the page (`--html`), when the run recorded them.
    public var recording: RunRecording? = nil
    /// Partition, configuration and time windows, for merging the reports of a partitioned run.
    public var origin = ReportOrigin()
    /// How devices chose from the shared catalog (`nearest`, or with `--coverage`).
    public var selection: SelectionReport? = nil
    /// The shared catalog evaluated without a slot limit, against what was reported (`--coverage`).
    public var coverage: CoverageSummary? = nil

    public var updatesPerSecond: Double { wallSeconds > 0 ? Double(updates) / wallSeconds : 0 }
    public var eventsPerSecond: Double { wallSeconds > 0 ? Double(eventsEmitted) / wallSeconds : 0 }
    public var rejectedTotal: Int { rejected.values.reduce(0, +) }

    /// Whether every sample read is accounted for (evaluated, filtered or rejected) and every event emitted was
    /// delivered — and, with a webhook, delivered or dead-lettered.
    public var isBalanced: Bool {
        let samplesBalance = samplesRead == updates + rejectedTotal + filtered
        let eventsBalance = eventsEmitted == notificationsDelivered && dropped == 0
        let webhookBalance = webhook.map { $0.accepted == $0.delivered + $0.deadLettered && $0.lost == 0 } ?? true
        return samplesBalance && eventsBalance && webhookBalance
    }

    /// Latency percentiles in milliseconds, in report order.
    public var latencyMilliseconds: [(name: String, value: Double)] { Self.milliseconds(latency) }

    /// A histogram's percentiles in milliseconds, in report order: `p50`, `p90`, `p99`, `p999`, `max`.
    public static func milliseconds(_ histogram: LatencyHistogram) -> [(name: String, value: Double)] {
        [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p999", 0.999)].map {
            ($0.0, Double(histogram.quantile($0.1)) / 1e6)
        } + [("max", Double(histogram.maximum) / 1e6)]
    }
}
