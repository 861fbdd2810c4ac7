import Foundation

/// A random-walk step on the sphere, for walks whose area comes near a pole or the antimeridian, where the plane
/// of the walk's centre (``RandomWalkPlan``'s fast path) would stretch east–west distances without bound or take
/// the long way round. A motion model, not a measurement: the sphere of the Earth's mean radius is within 0.5 % of
/// the ellipsoid, and regions are still tested exactly.
enum SphericalWalkStep {
    /// The Earth's mean radius (IUGG), metres.
    static let radius = 6_371_008.8

    /// The great-circle distance in metres from a position to the centre, and the bearing (radians from north)
    /// that leads there.
    static func towards(
        centerLatitude: Double, centerLongitude: Double, from latitude: Double, _ longitude: Double
    ) -> (distance: Double, bearing: Double) {
        let k = Double.pi / 180
        let phi1 = latitude * k, phi2 = centerLatitude * k
        let dLambda = (centerLongitude - longitude) * k
        let sinPhi1 = sin(phi1), cosPhi1 = cos(phi1), sinPhi2 = sin(phi2), cosPhi2 = cos(phi2)
        let y = sin(dLambda) * cosPhi2
        let x = cosPhi1 * sinPhi2 - sinPhi1 * cosPhi2 * cos(dLambda)
        let dot = sinPhi1 * sinPhi2 + cosPhi1 * cosPhi2 * cos(dLambda)
        let angle = atan2((x * x + y * y).squareRoot(), dot)
        return (angle * radius, atan2(y, x))
    }

    /// The position `distance` metres from a position along the great circle leaving it at `heading` (radians
    /// from north), and the heading there (so that a walk going straight on keeps going straight on, over a pole).
    static func step(
        _ latitude: Double, _ longitude: Double, heading: Double, distance: Double
    ) -> (latitude: Double, longitude: Double, heading: Double) {
        let k = Double.pi / 180
        let delta = distance / radius
        let phi1 = latitude * k, lambda1 = longitude * k
        let sinPhi1 = sin(phi1), cosPhi1 = cos(phi1), sinDelta = sin(delta), cosDelta = cos(delta)
        let sinPhi2 = min(1, max(-1, sinPhi1 * cosDelta + cosPhi1 * sinDelta * cos(heading)))
        let phi2 = asin(sinPhi2)
        let lambda2 = lambda1 + atan2(sin(heading) * sinDelta * cosPhi1, cosDelta - sinPhi1 * sinPhi2)
        // The heading on arrival: the reverse of the bearing from the new position back to the old one.
        let back = lambda1 - lambda2
        let cosPhi2 = cos(phi2)
        let backBearing = atan2(sin(back) * cosPhi1, cosPhi2 * sinPhi1 - sinPhi2 * cosPhi1 * cos(back))
        var newLongitude = (lambda2 / k).remainder(dividingBy: 360)
        if newLongitude == -180 { newLongitude = 180 }
        return (phi2 / k, newLongitude, backBearing + .pi)
    }
}
