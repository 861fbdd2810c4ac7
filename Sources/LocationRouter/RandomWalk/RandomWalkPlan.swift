import Foundation
import GeofenceKit

/// The deterministic parts of a random walk: each device's start, speed, heading and regions are functions of
/// the seed and the device index alone, so any shard (or process) can compute them without the others and the
/// same seed gives the same traffic whatever the shard count.
public struct RandomWalkPlan: Sendable {
    public let configuration: RandomWalkConfiguration
    public let seed: UInt64
    /// Metres per degree of latitude and of longitude at the centre: the walk is a plausible motion model,
    /// not a measurement, so a local plane is accurate enough to move devices (regions are tested exactly).
    let scale: LocalScale
    /// Whether the whole area (with room for the steps that leave it) stays far from the poles and the
    /// antimeridian, so the plane at the centre moves devices; otherwise they walk on the sphere
    /// (``SphericalWalkStep``).
    let isPlanar: Bool

    public init(configuration: RandomWalkConfiguration, seed: UInt64) {
        self.configuration = configuration
        self.seed = seed
        let scale = LocalScale(latitude: configuration.center.latitude)
        self.scale = scale
        let reach = configuration.areaRadius + 2 * configuration.speed.upperBound * configuration.interval + 1_000
        let center = configuration.center
        isPlanar =
            abs(center.latitude) + reach / scale.metresPerDegreeLatitude <= 70
            && abs(center.longitude) + reach / scale.metresPerDegreeLongitude <= 179
    }

    /// Where a device starts, how fast it moves (m/s) and its initial heading (radians from north).
    public func start(ofDevice device: Int32) -> (latitude: Double, longitude: Double, speed: Double, heading: Double) {
        var rng = SplitMix64(seed: seed, stream: UInt64(device), purpose: .walkStart)
        // The centre's scale is the plan's (the same value `offset` would compute again at every device).
        let (latitude, longitude) = GeoMotion.offset(
            configuration.center.latitude, configuration.center.longitude, withinDisc: configuration.areaRadius,
            scale: scale, using: &rng)
        let speed = rng.uniform(configuration.speed)
        let heading = rng.unit() * 2 * .pi
        return (latitude, longitude, speed, heading)
    }

    /// The generator for the device's heading noise along its walk.
    func walkGenerator(ofDevice device: Int32) -> SplitMix64 {
        SplitMix64(seed: seed, stream: UInt64(device), purpose: .walkSteps)
    }

    /// The device's stops, when the walk has them (``RandomWalkStops``).
    func stopSchedule(ofDevice device: Int32) -> StopSchedule? {
        guard let stops = configuration.stops, stops.share > 0 else { return nil }
        return StopSchedule(
            stops: stops, interval: configuration.interval,
            rng: SplitMix64(seed: seed, stream: UInt64(device), purpose: .walkStops))
    }

    /// The regions a device monitors: `perDevice` circles near its start (see ``GeneratedRegions``).
    public func regions(ofDevice device: Int32) -> [MonitoredRegion] {
        let start = start(ofDevice: device)
        return GeneratedRegions(configuration: configuration.regions, seed: seed)
            .regions(ofDevice: device, around: start.latitude, start.longitude)
    }

    /// Appends the same circles to `circles` (``MonitorState/CircleLookup``).
    public func circles(ofDevice device: Int32, into circles: inout [MonitoredCircle]) {
        let start = start(ofDevice: device)
        self.circles(ofDevice: device, startingAt: start.latitude, start.longitude, into: &circles)
    }

    /// ``circles(ofDevice:into:)`` for a caller that has the device's start (``start(ofDevice:)``) at hand: a
    /// monitor registering the devices of a walk whose first samples are their starts (no filter, no restart), so
    /// that the start is not computed a second time (it takes a `sincos` and a move; the lane computed it).
    public func circles(
        ofDevice device: Int32, startingAt latitude: Double, _ longitude: Double, into circles: inout [MonitoredCircle]
    ) {
        assert(
            start(ofDevice: device).latitude == latitude && start(ofDevice: device).longitude == longitude,
            "device \(device) registers away from its start")
        GeneratedRegions(configuration: configuration.regions, seed: seed)
            .circles(ofDevice: device, around: latitude, longitude, into: &circles)
    }
}
