import GeofenceKit

/// Combines the reports of the partitions of one run into the report of the whole run.
///
/// Counts add up; the latency histograms merge bucket by bucket, so the merged percentiles are exactly those
/// of one histogram of every event; wall time is the union of the partitions' wall-clock windows (overlapping
/// processes count once, gaps between them do not count) and throughput is total updates over it; simulated
/// time spans the earliest to the latest sample of any partition. Peak memory is the largest process's.
public enum ReportMerge {
    /// Why reports cannot be merged.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The first input errors a merged report keeps, as a run does.
    static let keptInputErrors = 20

    /// Merges `reports` (named as the user gave them, for messages).
    /// - Parameter allowingMissing: merge even when some partitions' reports are absent (they are listed in
    ///   `merged.missing`); otherwise that is refused.
    /// - Throws: ``Refusal`` when the reports come from different configurations, seeds, profiles, versions or
    ///   partition counts, when a partition appears twice, or when partitions are missing.
    public static func merge(
        _ reports: [(name: String, report: RunReport)], allowingMissing: Bool = false
    ) throws(Refusal) -> RunReport {
        guard let (firstName, first) = reports.first else { throw Refusal(message: "no report to merge") }
        if let (name, report) = reports.first(where: { $0.report.origin.merged != nil }),
            let info = report.origin.merged
        {
            // A merged report is the whole run's already: alone, it is taken as it is (to test thresholds on it),
            // with the partitions it lacks still said; beside others, its partitions would count twice.
            guard reports.count == 1 else {
                throw Refusal(message: "\(name) is a merged report already: merge the partitions' own reports")
            }
            if !info.missing.isEmpty && !allowingMissing {
                throw Refusal(
                    message: "\(name) is a merged report that lacks \(info.missing.count) of \(info.partitionCount) "
                        + "partitions: \(Self.list(info.missing)) (pass --allow-missing to take it as it is)")
            }
            var same = report
            same.thresholds = nil
            return same
        }
        func refuse(_ what: String, _ value: (RunReport) -> String) throws(Refusal) {
            for (name, report) in reports.dropFirst() where value(report) != value(first) {
                throw Refusal(
                    message: "\(name) and \(firstName) come from runs with different \(what) (\(value(report)) and \(value(first))): they are not partitions of one run")
            }
        }
        // The fingerprint of the configuration last: it covers the seed and the profile too, which say more.
        try refuse("seeds") { String($0.seed) }
        try refuse("profiles") { $0.profile }
        try refuse("versions") { $0.version }
        try refuse("partition counts") { String($0.origin.partition.count) }
        try refuse("configurations") { $0.origin.configuration ?? "none" }
        let count = first.origin.partition.count
        var owners: [Int: String] = [:]
        for (name, report) in reports {
            let index = report.origin.partition.index
            if let other = owners[index] {
                throw Refusal(message: "partition \(index)/\(count) appears twice: in \(other) and in \(name)")
            }
            owners[index] = name
        }
        let missing = (0..<count).filter { owners[$0] == nil }
        if !missing.isEmpty && !allowingMissing {
            throw Refusal(
                message: "\(missing.count) of \(count) partitions missing: \(Self.list(missing)) (pass --allow-missing to merge the others)")
        }
        let sorted = reports.map(\.report).sorted { $0.origin.partition.index < $1.origin.partition.index }
        var merged = first
        merged.thresholds = nil
        func sum(_ value: (RunReport) -> Int) -> Int { sorted.reduce(0) { $0 + value($1) } }
        func sum(_ value: (RunReport) -> [String: Int]) -> [String: Int] {
            sorted.reduce(into: [:]) { $0.merge(value($1), uniquingKeysWith: +) }
        }
        merged.devices = sum { $0.devices }
        merged.regions = sorted.allSatisfy(\.origin.regionsShared) ? first.regions : sum { $0.regions }
        merged.monitoredRegions = sum { $0.monitoredRegions }
        merged.samplesRead = sum { $0.samplesRead }
        merged.samples = sum { $0.samples }
        merged.filtered = sum { $0.filtered }
        merged.updates = sum { $0.updates }
        merged.events = sum { $0.events }
        merged.failures = sum { $0.failures }
        merged.suppressed = sum { $0.suppressed }
        merged.eventsEmitted = sum { $0.eventsEmitted }
        merged.notificationsDelivered = sum { $0.notificationsDelivered }
        merged.dropped = sum { $0.dropped }
        merged.rejected = sum { $0.rejected }
        merged.inputErrors = Array(sorted.flatMap(\.inputErrors).prefix(keptInputErrors))
        merged.latency = sorted.reduce(into: LatencyHistogram()) { $0.merge($1.latency) }
        merged.peakResidentBytes = sorted.map(\.peakResidentBytes).max() ?? 0
        merged.shards = sum { $0.shards }
        merged.backPressureWaits = sum { $0.backPressureWaits }
        merged.peakBatchesInFlight = sum { $0.peakBatchesInFlight }
        merged.batchCapacity = sum { $0.batchCapacity }
        merged.interrupted = sorted.contains(where: \.interrupted)
        merged.webhook = mergedWebhook(sorted.compactMap(\.webhook))
        mergeCatalogAndDelivery(sorted, into: &merged)
        merged.sinkFailure = sorted.lazy.compactMap(\.sinkFailure).first
        merged.stoppedBy = sorted.lazy.compactMap(\.stoppedBy).first
        let snapshots = sorted.compactMap(\.snapshots)
        merged.snapshots = snapshots.isEmpty ? nil : (snapshots.reduce(0) { $0 + $1.saved }, snapshots.reduce(0) { $0 + $1.failed })
        merged.wallSeconds = unionLength(sorted.map { ($0.origin.wallStart, $0.origin.wallEnd) })
        let firsts = sorted.compactMap(\.origin.firstSampleTime)
        let lasts = sorted.compactMap(\.origin.lastSampleTime)
        var origin = ReportOrigin()
        origin.configuration = first.origin.configuration
        origin.wallStart = sorted.map(\.origin.wallStart).min() ?? 0
        origin.wallEnd = sorted.map(\.origin.wallEnd).max() ?? 0
        origin.firstSampleTime = firsts.min()
        origin.lastSampleTime = lasts.max()
        origin.regionsShared = sorted.allSatisfy(\.origin.regionsShared)
        origin.merged = .init(
            reports: sorted.count, partitions: sorted.map(\.origin.partition.index), partitionCount: count,
            missing: missing)
        merged.origin = origin
        if let first = origin.firstSampleTime, let last = origin.lastSampleTime {
            merged.simulatedSeconds = Double(last - first) / 1e6
        } else {
            merged.simulatedSeconds = 0
        }
        return merged
    }

    /// The total length of the union of the intervals `[start, end]`.
    public static func unionLength(_ intervals: [(start: Double, end: Double)]) -> Double {
        var total = 0.0
        var current: (start: Double, end: Double)?
        for interval in intervals.sorted(by: { $0.start < $1.start }) {
            guard let open = current, interval.start <= open.end else {
                if let open = current { total += open.end - open.start }
                current = interval
                continue
            }
            current = (open.start, max(open.end, interval.end))
        }
        if let open = current { total += open.end - open.start }
        return total
    }

    private static func mergedWebhook(_ all: [WebhookStatistics]) -> WebhookStatistics? {
        guard !all.isEmpty else { return nil }
        return all.reduce(into: WebhookStatistics()) { total, one in
            total.accepted += one.accepted
            total.delivered += one.delivered
            total.deliveredRequests += one.deliveredRequests
            total.retries += one.retries
            total.deadLettered += one.deadLettered
            total.failedRequests += one.failedRequests
            total.lost += one.lost
            total.writeWaits += one.writeWaits
            // The last partition's that failed at all, in partition order.
            total.lastFailure = one.lastFailure ?? total.lastFailure
            total.latency.merge(one.latency)
        }
    }

    /// `selection`, `coverage` and `delivery`: counts and device time add up (a partition without the object
    /// adds nothing), and the ratios (`swapsPerDeviceHour`, `coverage.ratio`) and delay quantiles follow from the
    /// sums, as in one run.
    private static func mergeCatalogAndDelivery(_ reports: [RunReport], into merged: inout RunReport) {
        let selections = reports.compactMap(\.selection)
        merged.selection = selections.first.map { first in
            SelectionReport(strategy: first.strategy, summary: selections.reduce(SelectionSummary()) { $0 + $1.summary })
        }
        let coverages = reports.compactMap(\.coverage)
        merged.coverage = coverages.isEmpty ? nil : coverages.reduce(CoverageSummary(), +)
        let deliveries = reports.compactMap(\.delivery)
        merged.delivery = deliveries.isEmpty ? nil : deliveries.reduce(into: DeliveryStatistics()) { $0.merge($1) }
    }

    /// `1, 3, 5` — or the first ten and how many more.
    static func list(_ indices: [Int]) -> String {
        let shown = indices.prefix(10).map(String.init).joined(separator: ", ")
        return indices.count > 10 ? shown + " and \(indices.count - 10) more" : shown
    }
}
