import Foundation

/// How long after the platform decides a transition the app receives it: `monitor.delivery`.
///
/// Platforms do not deliver region events the moment they decide them: Core Location's events "typically arrive
/// within 3 to 5 minutes", Android's background geofence events every couple of minutes. A delay is drawn per event
/// from the seed, the (device, region) pair, the kind and the decision time alone — so the same seed gives the same
/// delays whatever the shard count, the partition or a restart — and the app sees the event at decision + delay.
public struct DeliveryDelay: Sendable, Equatable {
    /// The distribution of the delay, in seconds.
    public enum Distribution: Sendable, Equatable {
        /// No delay: the app receives an event when the platform decides it (the `exact` profile).
        case instant
        /// The same delay for every event.
        case fixed(Double)
        /// A log-normal delay with this median and 95th percentile (`p95 ≥ median > 0`).
        case lognormal(median: Double, p95: Double)
    }

    public var distribution: Distribution

    public init(_ distribution: Distribution = .instant) {
        self.distribution = distribution
    }

    public static let instant = DeliveryDelay()

    /// Whether events wait at all (a region's `notificationResponsiveness` may still add a wait to an instant one).
    public var isInstant: Bool {
        switch distribution {
        case .instant: true
        case .fixed(let seconds): seconds <= 0
        case .lognormal: false
        }
    }

    /// The z-score of the 95th percentile of the standard normal distribution.
    static let z95 = 1.6448536269514722

    /// The delay in seconds for two independent uniform draws in [0, 1) (Box–Muller for the log-normal).
    public func seconds(_ first: Double, _ second: Double) -> Double {
        switch distribution {
        case .instant:
            return 0
        case .fixed(let seconds):
            return max(0, seconds)
        case .lognormal(let median, let p95):
            let sigma = log(max(p95, median) / median) / Self.z95
            let normal = (-2 * log(1 - first)).squareRoot() * cos(2 * .pi * second)
            return median * exp(sigma * normal)
        }
    }

    /// The seeded delay of one event, in microseconds, plus a uniform share of `responsiveness` seconds (Android's
    /// per-geofence `notificationResponsiveness`: the service looks for the event once per that period, so the wait
    /// for its next look is uniform over it).
    public func microseconds(
        seed: UInt64, device: Int32, region: Int32, kind: EventKind, decidedAt time: Int64, responsiveness: Double = 0
    ) -> Int64 {
        microseconds(
            seed: seed, key: Self.key(device: device, region: region), kind: kind, decidedAt: time,
            responsiveness: responsiveness)
    }

    /// The key of a (device, region) pair by their indices (see ``MonitorState/deliveryKey`` for stable names).
    public static func key(device: Int32, region: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: device)) << 32 | UInt64(UInt32(bitPattern: region))
    }

    /// The seeded delay of the event of the (device, region) pair `key`, in microseconds (see above).
    public func microseconds(
        seed: UInt64, key: UInt64, kind: EventKind, decidedAt time: Int64, responsiveness: Double = 0
    ) -> Int64 {
        var rng = SplitMix64(
            seed: seed, stream: key,
            purpose: Self.purpose ^ (UInt64(bitPattern: time) &* 0x0000_0100_0000_01B3) ^ UInt64(kind.rawValue) << 56)
        let first = rng.unit(), second = rng.unit(), third = rng.unit()
        let total = seconds(first, second) + (responsiveness > 0 ? third * responsiveness : 0)
        return Int64((total * 1e6).rounded())
    }

    /// The random stream of delivery delays.
    static let purpose = RandomStream.deliveryDelay.rawValue

    /// `instant`, `{"fixed": S}` or `{"distribution": "lognormal", "median": S, "p95": S}`, as config.json writes it.
    public var text: String {
        switch distribution {
        case .instant: "instant"
        case .fixed(let seconds): "{\"fixed\": \(seconds)}"
        case .lognormal(let median, let p95): "{\"distribution\": \"lognormal\", \"median\": \(median), \"p95\": \(p95)}"
        }
    }
}
