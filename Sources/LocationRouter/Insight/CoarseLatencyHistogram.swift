/// A small log-bucketed histogram of nanosecond durations (4 buckets per power of two, about ±10 %), for
/// latency over time and for the page's histogram: 2 KiB whatever the count, so one per time bucket is cheap.
public struct CoarseLatencyHistogram: Sendable, Equatable {
    static let subBuckets = 4
    private var counts: [UInt64]
    public private(set) var count: UInt64 = 0

    public init() { counts = Array(repeating: 0, count: 64 * Self.subBuckets) }

    /// The same values, coarser: every bucket of `fine` lies inside one bucket of this layout (a fine bucket is
    /// at most 1/128 of its lower bound wide and starts on a multiple of its width; a coarse one is 1/4 of an
    /// octave), so the result equals recording every value here.
    public init(coarsening fine: LatencyHistogram) {
        self.init()
        for bucket in fine.buckets { record(bucket.lower, times: bucket.count) }
    }

    @inline(__always)
    static func index(of value: UInt64) -> Int {
        guard value >= 4 else { return Int(value) }
        let octave = 63 - value.leadingZeroBitCount
        let fraction = Int((value >> UInt64(octave - 2)) & 3)
        return octave * subBuckets + fraction
    }

    /// The smallest value of bucket `index` and the first value past it.
    static func range(of index: Int) -> (lower: UInt64, upper: UInt64) {
        guard index >= 2 * subBuckets else { return (UInt64(index), UInt64(index) + 1) }
        let octave = index / subBuckets
        let fraction = UInt64(index % subBuckets)
        let step = UInt64(1) << UInt64(octave - 2)
        let lower = (UInt64(1) << UInt64(octave)) + fraction * step
        return (lower, lower + step)
    }

    @inline(__always)
    public mutating func record(_ nanoseconds: UInt64, times: UInt64 = 1) {
        counts[Self.index(of: nanoseconds)] &+= times
        count &+= times
    }

    public mutating func merge(_ other: CoarseLatencyHistogram) {
        for i in counts.indices where other.counts[i] > 0 { counts[i] &+= other.counts[i] }
        count &+= other.count
    }

    /// The midpoint of the bucket holding the `fraction` quantile; 0 when empty.
    public func quantile(_ fraction: Double) -> UInt64 {
        guard let i = counts.bucket(holding: fraction, of: count) else { return 0 }
        let (lower, upper) = Self.range(of: i)
        return lower + (upper - lower) / 2
    }

    /// The buckets that hold values: their bounds in nanoseconds and their counts, in ascending order.
    public var buckets: [(lower: UInt64, upper: UInt64, count: UInt64)] {
        counts.indices.filter { counts[$0] > 0 }.map {
            let range = Self.range(of: $0)
            return (range.lower, range.upper, counts[$0])
        }
    }
}
