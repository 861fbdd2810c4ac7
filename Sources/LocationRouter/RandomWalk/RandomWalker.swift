import Foundation
import GeofenceKit

/// One random-walk device as it moves: its position, heading, step and generator, kept together so that a lane
/// reads and writes one record per device visit.
struct RandomWalker: Sendable {
    var latitude: Double
    var longitude: Double
    /// Radians from north.
    var heading: Double
    /// Metres per time step.
    let stepLength: Double
    /// Draws the heading noise.
    var rng: SplitMix64

    /// Where the walk's devices stay and how they turn: what every step of a lane reads.
    struct Area: Sendable {
        let center: Coordinate
        let radius: Double
        /// The largest heading change of one step (radians): uniform noise with the configured standard deviation,
        /// √3·σ·√dt bounding a uniform of variance σ²·dt.
        let headingNoise: Double
        let scale: LocalScale
        /// Whether the plane at the centre moves devices (``RandomWalkPlan/isPlanar``), or great circles do.
        let isPlanar: Bool

        init(plan: RandomWalkPlan) {
            let configuration = plan.configuration
            center = configuration.center
            radius = configuration.areaRadius
            headingNoise = configuration.headingNoise * .pi / 180 * (3 * configuration.interval).squareRoot()
            scale = plan.scale
            isPlanar = plan.isPlanar
        }
    }

    /// Device `device` at its start (``RandomWalkPlan/start(ofDevice:)``).
    init(plan: RandomWalkPlan, device: Int32) {
        let start = plan.start(ofDevice: device)
        latitude = start.latitude
        longitude = start.longitude
        heading = start.heading
        stepLength = start.speed * plan.configuration.interval
        rng = plan.walkGenerator(ofDevice: device)
    }

    /// Moves by one step: turn by seeded noise, and head back towards the centre when outside the area.
    @inline(__always)
    mutating func advance(in area: Area) {
        guard area.isPlanar else { return advanceOnSphere(in: area) }
        var h = heading + area.headingNoise * (2 * rng.unit() - 1)
        let north = (latitude - area.center.latitude) * area.scale.metresPerDegreeLatitude
        let east = (longitude - area.center.longitude) * area.scale.metresPerDegreeLongitude
        if north * north + east * east > area.radius * area.radius {
            h = atan2(-east, -north)
        }
        heading = h
        (latitude, longitude) = area.scale.move(latitude, longitude, north: stepLength * cos(h), east: stepLength * sin(h))
    }

    /// ``advance(in:)`` for walks near a pole or the antimeridian: great circles on the sphere, the shorter way
    /// round, over a pole when the walk goes there.
    private mutating func advanceOnSphere(in area: Area) {
        var h = heading + area.headingNoise * (2 * rng.unit() - 1)
        let back = SphericalWalkStep.towards(
            centerLatitude: area.center.latitude, centerLongitude: area.center.longitude, from: latitude, longitude)
        if back.distance > area.radius { h = back.bearing }
        (latitude, longitude, heading) = SphericalWalkStep.step(latitude, longitude, heading: h, distance: stepLength)
    }
}
