import Foundation

/// A position on the WGS84 ellipsoid in Earth-centred, Earth-fixed coordinates (metres).
///
/// The straight line between two points on the ellipsoid is never longer than the geodesic between them, so
/// distances in this space are lower bounds of geodesic distances everywhere — across ±180° and over the poles
/// alike — which is what a spatial index needs to prune safely. For the few kilometres that separate a device
/// from its nearest regions the chord is also within a millimetre of the geodesic (the difference is at most
/// s³ / 24M², M ≥ 6,335 km the ellipsoid's smallest radius of curvature).
public struct EarthCentredPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point of the ellipsoid's surface at a latitude and longitude in degrees (each angle's sine and cosine
    /// in one call: building the index of a million regions computes a million of these).
    public init(latitude: Double, longitude: Double) {
        let (sinPhi, cosPhi) = SineAndCosine.of(latitude * Geodesic.radiansPerDegree)
        let (sinLambda, cosLambda) = SineAndCosine.of(longitude * Geodesic.radiansPerDegree)
        let e2 = Geodesic.eccentricitySquared
        let n = Geodesic.semiMajorAxis / (1 - e2 * sinPhi * sinPhi).squareRoot()
        x = n * cosPhi * cosLambda
        y = n * cosPhi * sinLambda
        z = n * (1 - e2) * sinPhi
    }

    /// The straight-line distance to another point, in metres.
    @inline(__always)
    public func distance(to other: EarthCentredPoint) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// The smallest radius of curvature of the ellipsoid, a(1 − e²): no geodesic bends more sharply than a circle
    /// of this radius.
    static let smallestCurvatureRadius = Geodesic.semiMajorAxis * (1 - Geodesic.eccentricitySquared)

    /// An upper bound of how much longer the geodesic is than a chord of `chord` metres (for chords up to 1,000 km):
    /// s − c ≤ s³ / 24M², with s ≤ 1.05 c there.
    @inline(__always)
    static func geodesicExcess(chord: Double) -> Double {
        let s = chord * 1.05
        return s * s * s / (24 * smallestCurvatureRadius * smallestCurvatureRadius)
    }
}
