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
    let metresPerDegreeLatitude: Double
    let metresPerDegreeLongitude: Double

    private enum Purpose: UInt64 {
        case start = 1, walk = 2, regions = 3
    }

    public init(configuration: RandomWalkConfiguration, seed: UInt64) {
        self.configuration = configuration
        self.seed = seed
        let latitude = configuration.center.latitude * .pi / 180
        let e2 = Geodesic.eccentricitySquared
        let w = (1 - e2 * sin(latitude) * sin(latitude)).squareRoot()
        let meridional = Geodesic.semiMajorAxis * (1 - e2) / (w * w * w)
        let primeVertical = Geodesic.semiMajorAxis / w
        metresPerDegreeLatitude = meridional * .pi / 180
        metresPerDegreeLongitude = max(primeVertical * cos(latitude) * .pi / 180, 1)
    }

    /// Where a device starts, how fast it moves (m/s) and its initial heading (radians from north).
    public func start(ofDevice device: Int32) -> (latitude: Double, longitude: Double, speed: Double, heading: Double) {
        var rng = SplitMix64(seed: seed, stream: UInt64(device), purpose: Purpose.start.rawValue)
        let (latitude, longitude) = offset(
            configuration.center.latitude, configuration.center.longitude, withinDisc: configuration.areaRadius,
            using: &rng)
        let speed = rng.uniform(configuration.speed)
        let heading = rng.unit() * 2 * .pi
        return (latitude, longitude, speed, heading)
    }

    /// The generator for the device's heading noise along its walk.
    func walkGenerator(ofDevice device: Int32) -> SplitMix64 {
        SplitMix64(seed: seed, stream: UInt64(device), purpose: Purpose.walk.rawValue)
    }

    /// The regions a device monitors: `perDevice` circles near its start, with identifiers
    /// `device * perDevice + k` (named `device-D/rK`).
    public func regions(ofDevice device: Int32) -> [MonitoredRegion] {
        let regions = configuration.regions
        guard regions.perDevice > 0 else { return [] }
        let start = start(ofDevice: device)
        var rng = SplitMix64(seed: seed, stream: UInt64(device), purpose: Purpose.regions.rawValue)
        return (0..<regions.perDevice).map { k in
            let (latitude, longitude) = offset(
                start.latitude, start.longitude, withinDisc: regions.maxDistance, using: &rng)
            let radius = rng.uniform(regions.radius)
            let circle = CircleGeometry(center: Coordinate(unchecked: latitude, longitude), radius: radius)
            return MonitoredRegion(id: device &* Int32(regions.perDevice) &+ Int32(k), geometry: .circle(circle))
        }
    }

    /// A point uniformly distributed in the disc of `radius` metres around a position.
    private func offset(
        _ latitude: Double, _ longitude: Double, withinDisc radius: Double, using rng: inout SplitMix64
    ) -> (Double, Double) {
        let distance = radius * rng.unit().squareRoot()
        let bearing = rng.unit() * 2 * .pi
        return moved(latitude, longitude, north: distance * cos(bearing), east: distance * sin(bearing))
    }

    /// A position moved by metres north and east, kept a valid coordinate.
    @inline(__always)
    func moved(_ latitude: Double, _ longitude: Double, north: Double, east: Double) -> (Double, Double) {
        let newLatitude = min(max(latitude + north / metresPerDegreeLatitude, -89.999_999), 89.999_999)
        var newLongitude = longitude + east / metresPerDegreeLongitude
        if newLongitude > 180 { newLongitude -= 360 } else if newLongitude < -180 { newLongitude += 360 }
        return (newLatitude, newLongitude)
    }
}
