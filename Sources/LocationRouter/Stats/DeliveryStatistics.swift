import GeofenceKit

/// The delivery delays of a run's events (`time − detectedAt` of the events delivered late): the report's
/// `delivery` object.
public struct DeliveryStatistics: Sendable, Equatable {
    /// Events delivered late.
    public var delayed = 0
    /// Of those, events held back behind an earlier event of their device beyond their own delay.
    public var heldBack = 0
    /// The delays in microseconds (log buckets about 0.8 % wide).
    public var histogram = LatencyHistogram()

    public init() {}

    /// Records the delays of `events` that carry `detectedAt`.
    mutating func record(_ events: [GeofenceEvent]) {
        for event in events {
            guard let decided = event.detectedAt else { continue }
            histogram.record(UInt64(max(0, event.time.microseconds - decided.microseconds)))
        }
    }

    mutating func merge(_ other: DeliveryStatistics) {
        delayed += other.delayed
        heldBack += other.heldBack
        histogram.merge(other.histogram)
    }

    /// The delay quantile in seconds (p50, p90, p95, p99; `max` for 1): `nil` without delayed events.
    public func seconds(_ fraction: Double) -> Double? {
        guard histogram.count > 0 else { return nil }
        let microseconds = fraction >= 1 ? histogram.maximum : histogram.quantile(fraction)
        return Double(microseconds) / 1e6
    }

    /// The quantiles the report shows, by name.
    public static let quantiles: [(name: String, fraction: Double)] = [
        ("p50", 0.5), ("p90", 0.9), ("p95", 0.95), ("p99", 0.99), ("max", 1),
    ]
}
