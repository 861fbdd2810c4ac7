import GeofenceKit

/// Counts over time, in buckets of one width (a wall-clock second, a simulated minute), bounded in size: when a
/// record would make more than `limit` buckets, the width doubles and neighbouring buckets merge.
///
/// Positions are integers in the series' own unit (nanoseconds of wall time, microseconds of sample time); a
/// bucket holds the positions `[key × width, (key + 1) × width)`. Records arrive per batch, never per sample.
public struct TimeSeries: Sendable {
    /// What one bucket counted.
    public struct Bucket: Sendable {
        public var updates = 0
        /// Events by ``EventKind`` raw value.
        public var events = [Int](repeating: 0, count: EventKind.allCases.count)
        public var latency = CoarseLatencyHistogram()
        public var backPressureWaits = 0

        mutating func merge(_ other: Bucket) {
            updates += other.updates
            for i in events.indices { events[i] += other.events[i] }
            latency.merge(other.latency)
            backPressureWaits += other.backPressureWaits
        }
    }

    public private(set) var width: Int64
    public let limit: Int
    public private(set) var buckets: [Int64: Bucket] = [:]

    public init(width: Int64, limit: Int = 720) {
        self.width = max(1, width)
        self.limit = max(2, limit)
    }

    @inline(__always)
    public func key(of position: Int64) -> Int64 {
        let quotient = position / width
        return position % width < 0 ? quotient - 1 : quotient
    }

    /// Changes bucket `key`, coarsening first when it would be one bucket too many.
    @inline(__always)
    public mutating func update(at position: Int64, _ change: (inout Bucket) -> Void) {
        var key = key(of: position)
        if buckets[key] == nil, buckets.count >= limit {
            coarsen()
            key = self.key(of: position)
        }
        change(&buckets[key, default: Bucket()])
    }

    public mutating func addUpdates(_ count: Int, at position: Int64) {
        update(at: position) { $0.updates += count }
    }

    /// Adds `other`'s buckets, at the coarser of the two widths.
    public mutating func merge(_ other: TimeSeries) {
        var other = other
        while width < other.width { coarsen() }
        while other.width < width { other.coarsen() }
        for (key, bucket) in other.buckets { buckets[key, default: Bucket()].merge(bucket) }
        while buckets.count > limit { coarsen() }
    }

    /// Doubles the width (merging pairs of buckets) until the buckets fit in the limit.
    mutating func coarsen() {
        repeat {
            width *= 2
            var merged: [Int64: Bucket] = [:]
            for (key, bucket) in buckets {
                let half = key >= 0 ? key / 2 : (key - 1) / 2
                merged[half, default: Bucket()].merge(bucket)
            }
            buckets = merged
        } while buckets.count >= limit
    }

    /// The buckets in time order, each with the position where it starts.
    public var sorted: [(start: Int64, bucket: Bucket)] {
        buckets.sorted { $0.key < $1.key }.map { ($0.key * width, $0.value) }
    }
}
