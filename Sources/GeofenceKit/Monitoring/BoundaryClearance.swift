import Foundation

/// A disc around a device's position that no boundary of its regions crosses: while the device stays inside it,
/// it is inside or outside each region exactly as before, so a sample there needs no containment test at all.
///
/// The exact path (``MonitorState``) tests every slot at a sample and takes, over the slots, a lower bound of the
/// geodesic distance from the position to each circle's boundary (``PackedRegion/circleContains(latitude:longitude:clearance:)``);
/// that is the disc's radius. Later samples are first measured against the disc. Geodesic distance is a metric,
/// so a device that moved less than the radius is on the same side of every boundary (for a region whose centre
/// lies at distance s from the anchor, the new distance differs from s by at most the distance moved). Moving
/// devices cross a boundary rarely: most samples then cost this one test instead of one test per region.
///
/// The distance moved is bounded from above, never estimated: along the straight path in latitude and longitude
/// between the two positions, a step is at most B·√(dφ² + cos²φ·dλ²) metres, with B = a/√(1 − e²) the largest
/// radius of curvature of the ellipsoid (N cos φ ≤ B cos φ and M ≤ B), and φ the latitude nearest the equator
/// that the path can reach while it stays within the disc. The geodesic is no longer than that path.
struct BoundaryClearance: Sendable {
    /// The position the disc is centred on (degrees).
    var latitude: Double
    var longitude: Double
    /// cos² of the latitude nearest the equator the disc reaches, rounded up.
    var cosineSquared: Float
    /// The disc's radius squared, in radians of B (squared), rounded down; 0: no disc, test every slot.
    var radiusSquared: Float

    /// No disc: the next sample tests every slot.
    static let none = BoundaryClearance(latitude: 0, longitude: 0, cosineSquared: 1, radiusSquared: 0)

    /// The largest radius of curvature of the WGS84 ellipsoid, a/√(1 − e²) (at the poles), in metres.
    static let largestRadius = Geodesic.semiMajorAxis / (1 - Geodesic.eccentricitySquared).squareRoot()

    /// Discs are no wider than this (metres): far regions would otherwise need their plane's error bound far
    /// beyond their radius, and a device seldom goes further without meeting a boundary anyway.
    static let maximumRadius = 5_000.0

    /// The disc of `radius` metres (a lower bound of the distance to every boundary) around a position.
    init(latitude: Double, longitude: Double, radius: Double) {
        guard radius > 0, radius.isFinite, abs(latitude) <= 90 else {
            self = .none
            return
        }
        let angle = min(radius, Self.maximumRadius) / Self.largestRadius
        // The path's latitude stays within `angle` of the anchor's while the test below passes (B·|dφ| < radius).
        let nearestToEquator = max(0, abs(latitude) * Geodesic.radiansPerDegree - angle)
        let cosine = cos(nearestToEquator)
        // Rounded towards safety: the cosine up (by a relative 1e-6, far beyond libm's error), the radius down.
        let cosineSquared = Float(min(1, cosine * cosine * (1 + 1e-6)))
        let radiusSquared = Float(angle * angle * (1 - 1e-6))
        self.init(
            latitude: latitude, longitude: longitude,
            cosineSquared: Double(cosineSquared) >= cosine * cosine ? cosineSquared : cosineSquared.nextUp,
            radiusSquared: Double(radiusSquared) <= angle * angle ? radiusSquared : radiusSquared.nextDown)
    }

    private init(latitude: Double, longitude: Double, cosineSquared: Float, radiusSquared: Float) {
        self.latitude = latitude
        self.longitude = longitude
        self.cosineSquared = cosineSquared
        self.radiusSquared = radiusSquared
    }

    /// Whether the position lies strictly inside the disc (then no region's containment has changed).
    @inline(__always)
    func covers(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Bool {
        let k = Geodesic.radiansPerDegree
        let dPhi = (pointLatitude - latitude) * k
        var dLonDegrees = pointLongitude - longitude
        if abs(dLonDegrees) > 180 { dLonDegrees -= dLonDegrees > 0 ? 360 : -360 }
        let dLambda = dLonDegrees * k
        // NaN compares false: such a sample takes the full test.
        return dPhi * dPhi + Double(cosineSquared) * dLambda * dLambda < Double(radiusSquared)
    }

    /// The bound on the plane's error at distance `distance` from a circle's centre, for a circle whose margin is
    /// finite (|φ0| ≤ 75°, radius ≤ 100 km): twice the fit k(φ0)·s³ of ``CircleGeometry`` at its largest k.
    @inline(__always)
    static func planarError(atDistance distance: Double) -> Double {
        // k(75°) = 2.4e-16 + 1.2e-15 · tan²75° ≤ 1.7e-14 m⁻².
        2 * 1.7e-14 * distance * distance * distance + 1e-6
    }
}
