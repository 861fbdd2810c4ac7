import Foundation
import GeofenceKit

/// One random-walk device as it moves: its position, heading, step and generator, kept together so that a lane
/// reads and writes one record per device visit.
struct RandomWalker: Sendable {
    var latitude: Double
    var longitude: Double
    /// Radians from north (walks on the sphere).
    var heading: Double
    /// The heading as a unit vector, north and east components (walks on the plane): a turn is a rotation, so a
    /// step takes no sine or cosine of the heading itself.
    var north: Double
    var east: Double
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
        (east, north) = SineAndCosine.of(start.heading)
        stepLength = start.speed * plan.configuration.interval
        rng = plan.walkGenerator(ofDevice: device)
    }

    /// Moves by one step: turn by seeded noise, and head back towards the centre when outside the area.
    @inline(__always)
    mutating func advance(in area: Area) {
        guard area.isPlanar else { return advanceOnSphere(in: area) }
        let turn = area.headingNoise * (2 * rng.unit() - 1)
        let (sine, cosine) = area.headingNoise <= SmallAngle.limit ? SmallAngle.sinCos(turn) : (sin(turn), cos(turn))
        let fromCenterNorth = (latitude - area.center.latitude) * area.scale.metresPerDegreeLatitude
        let fromCenterEast = (longitude - area.center.longitude) * area.scale.metresPerDegreeLongitude
        let distanceSquared = fromCenterNorth * fromCenterNorth + fromCenterEast * fromCenterEast
        if distanceSquared > area.radius * area.radius {
            let back = 1 / distanceSquared.squareRoot()
            (north, east) = (-fromCenterNorth * back, -fromCenterEast * back)
        } else {
            (north, east) = (north * cosine - east * sine, east * cosine + north * sine)
            // Rounding would let the vector's length drift over millions of turns: one Newton step back to 1.
            let correction = 1.5 - 0.5 * (north * north + east * east)
            (north, east) = (north * correction, east * correction)
        }
        (latitude, longitude) = area.scale.move(latitude, longitude, north: stepLength * north, east: stepLength * east)
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
