/// A log-bucketed histogram of durations in nanoseconds, with a relative precision of 0.8 %.
///
/// Values are grouped by their power of two and, within it, by 128 linear sub-buckets (HdrHistogram's
/// layout), so recording is a few instructions and memory is fixed whatever the count.
public struct LatencyHistogram: Sendable, Equatable {
    /// Values below 2^precisionBits have a bucket each; above, each power of two has 2^(precisionBits-1)
    /// buckets, so a bucket is never wider than 1/128 of its lower bound (0.8 %).
    private static let precisionBits = 8
    private static let halfRange = 1 << (precisionBits - 1)
    private var counts: [UInt64]
    public private(set) var count: UInt64 = 0
    public private(set) var maximum: UInt64 = 0
    public private(set) var minimum: UInt64 = .max

    public init() {
        counts = Array(repeating: 0, count: 2 * Self.halfRange + (64 - Self.precisionBits) * Self.halfRange)
    }

    @inline(__always)
    private static func index(of value: UInt64) -> Int {
        let shift = (64 - value.leadingZeroBitCount) - precisionBits
        guard shift > 0 else { return Int(value) }
        // value >> shift lies in [halfRange, 2·halfRange).
        return 2 * halfRange + (shift - 1) * halfRange + Int(value >> UInt64(shift)) - halfRange
    }

    /// The smallest value that falls into bucket `index` and the width of that bucket.
    private static func range(of index: Int) -> (lower: UInt64, width: UInt64) {
        guard index >= 2 * halfRange else { return (UInt64(index), 1) }
        let shift = (index - 2 * halfRange) / halfRange + 1
        let top = UInt64((index - 2 * halfRange) % halfRange + halfRange)
        return (top << UInt64(shift), 1 << UInt64(shift))
    }

    /// Records one duration; `times` records it that many times (events of one batch share a latency).
    @inline(__always)
    public mutating func record(_ nanoseconds: UInt64, times: UInt64 = 1) {
        counts[Self.index(of: nanoseconds)] &+= times
        count &+= times
        maximum = max(maximum, nanoseconds)
        minimum = min(minimum, nanoseconds)
    }

    /// Adds every value recorded in `other`.
    public mutating func merge(_ other: LatencyHistogram) {
        for i in counts.indices { counts[i] &+= other.counts[i] }
        count &+= other.count
        maximum = max(maximum, other.maximum)
        minimum = min(minimum, other.minimum)
    }

    /// The non-empty buckets in increasing order: each holds the values `lower ..< lower + width`.
    public var buckets: [(lower: UInt64, width: UInt64, count: UInt64)] {
        counts.indices.compactMap { i in
            guard counts[i] > 0 else { return nil }
            let (lower, width) = Self.range(of: i)
            return (lower, width, counts[i])
        }
    }

    /// A histogram from ``buckets`` and the recorded extremes (as a report carries them); `nil` when a bucket is
    /// not one of this layout's or the extremes do not fit the buckets.
    public init?(buckets: [(lower: UInt64, width: UInt64, count: UInt64)], minimum: UInt64, maximum: UInt64) {
        self.init()
        for bucket in buckets where bucket.count > 0 {
            let index = Self.index(of: bucket.lower)
            guard Self.range(of: index) == (bucket.lower, bucket.width) else { return nil }
            counts[index] &+= bucket.count
            count &+= bucket.count
        }
        guard count > 0 else { return }
        let lowest = Self.range(of: counts.firstIndex { $0 > 0 }!)
        let highest = Self.range(of: counts.lastIndex { $0 > 0 }!)
        guard minimum <= maximum, (lowest.lower..<lowest.lower + lowest.width).contains(minimum),
            (highest.lower..<highest.lower + highest.width).contains(maximum)
        else { return nil }
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The value at or below which `fraction` (0…1) of the recorded values lie: the midpoint of its bucket,
    /// clamped to the recorded extremes; 0 when nothing was recorded.
    public func quantile(_ fraction: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        guard let i = counts.bucket(holding: fraction, of: count) else { return maximum }
        let (lower, width) = Self.range(of: i)
        return min(max(lower + (width - 1) / 2, minimum), maximum)
    }
}

extension Array where Element == UInt64 {
    /// The index of the bucket holding the value of rank ⌈`total` × `fraction`⌉ (at least 1) among bucket
    /// counts in ascending order of value; `nil` when the counts hold fewer values.
    func bucket(holding fraction: Double, of total: UInt64) -> Int? {
        let rank = Swift.max(1, UInt64((Double(total) * fraction).rounded(.up)))
        var seen: UInt64 = 0
        for (i, count) in enumerated() where count > 0 {
            seen += count
            if seen >= rank { return i }
        }
        return nil
    }
}
