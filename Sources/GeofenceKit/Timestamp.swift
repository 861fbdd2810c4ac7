/// A point in simulated time: whole microseconds since the Unix epoch (1970-01-01T00:00:00Z).
///
/// Microseconds keep every realistic fraction exact (unlike a `Double` of seconds) and span ±292,000 years,
/// so recorded traces from any era fit. Simulation time is always data, never the wall clock.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The timestamp `seconds` after the epoch, rounded to the nearest microsecond.
    @inlinable
    public init(seconds: Double) { self.microseconds = Int64((seconds * 1_000_000).rounded()) }

    @inlinable
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    @inlinable
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }

    @inlinable
    public func adding(seconds: Double) -> Timestamp {
        Timestamp(microseconds: microseconds + Int64((seconds * 1_000_000).rounded()))
    }

    public var description: String { iso8601 }
}
