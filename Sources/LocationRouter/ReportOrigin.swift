import Foundation
import GeofenceKit

/// What a report says about where it came from, so that the reports of a partitioned run can be merged:
/// the partition, the configuration, the wall-clock window and the span of sample times.
public struct ReportOrigin: Sendable, Equatable {
    /// The partition the run simulated (`0/1`: the whole run).
    public var partition = Partition.whole
    /// A fingerprint of everything that decides the events (set by whoever built the configuration); reports
    /// merge only when theirs are equal.
    public var configuration: String?
    /// When the run started and ended, in seconds since 1970 (wall clock).
    public var wallStart: Double = 0
    public var wallEnd: Double = 0
    /// The earliest and latest sample times sent (µs since 1970); `nil` when there was none.
    public var firstSampleTime: Int64?
    public var lastSampleTime: Int64?
    /// Whether the regions come from a region file that every partition loads whole (their count is then not
    /// summed by a merge), rather than generated per device.
    public var regionsShared = false
    /// How the report was merged, for a merged report.
    public var merged: MergeInfo?

    public init() {}

    /// What a merge combined.
    public struct MergeInfo: Sendable, Equatable {
        /// How many reports were merged.
        public var reports: Int
        /// Their partitions' indices, in increasing order, and how many partitions the run has.
        public var partitions: [Int]
        public var partitionCount: Int
        /// The partitions of the run whose report was not given.
        public var missing: [Int]

        public init(reports: Int, partitions: [Int], partitionCount: Int, missing: [Int]) {
            self.reports = reports
            self.partitions = partitions
            self.partitionCount = partitionCount
            self.missing = missing
        }
    }
}

extension RunReport {
    /// The keys a merge needs, in report order (after `accounting`).
    var originPairs: [(String, String)] {
        func object(_ pairs: [(String, String)]) -> String {
            "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        func time(_ value: Int64?) -> String {
            value.map { EventEncoder.jsonLiteral(Timestamp(microseconds: $0).iso8601) } ?? "null"
        }
        var pairs: [(String, String)] = [
            ("partition", object([("index", String(origin.partition.index)), ("count", String(origin.partition.count))])),
            ("configuration", origin.configuration.map(EventEncoder.jsonLiteral) ?? "null"),
            ("wallClock", object([("start", format3(origin.wallStart)), ("end", format3(origin.wallEnd))])),
            ("sampleTimes", object([("first", time(origin.firstSampleTime)), ("last", time(origin.lastSampleTime))])),
            ("regionsShared", origin.regionsShared ? "true" : "false"),
            ("latencyBuckets", latency.json),
        ]
        if let merged = origin.merged {
            pairs.append(("merged", object([
                ("reports", String(merged.reports)),
                ("partitionCount", String(merged.partitionCount)),
                ("partitions", "[" + merged.partitions.map(String.init).joined(separator: ",") + "]"),
                ("missing", "[" + merged.missing.map(String.init).joined(separator: ",") + "]"),
            ])))
        }
        return pairs
    }
}

extension LatencyHistogram {
    /// `{"count":…,"minNs":…,"maxNs":…,"buckets":[[lowerNs,widthNs,count],…]}`: the non-empty buckets, from
    /// which any merge recomputes the percentiles exactly.
    public var json: String {
        let buckets = buckets.map { "[\($0.lower),\($0.width),\($0.count)]" }.joined(separator: ",")
        return "{\"count\":\(count),\"minNs\":\(count > 0 ? minimum : 0),\"maxNs\":\(maximum),\"buckets\":[\(buckets)]}"
    }
}
