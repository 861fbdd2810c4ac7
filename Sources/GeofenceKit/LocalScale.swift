import Foundation

/// Metres per degree of latitude and longitude at a latitude (WGS84 radii of curvature): a local plane for
/// moving generated positions by metres. Regions are never tested with it.
public struct LocalScale: Sendable {
    public let metresPerDegreeLatitude: Double
    public let metresPerDegreeLongitude: Double

    public init(latitude: Double) {
        let phi = latitude * .pi / 180
        let e2 = Geodesic.eccentricitySquared
        // One call for both (the same bits as `sin` and `cos`): generated regions take a scale per device.
        let (s, c) = SineAndCosine.of(phi)
        let w = (1 - e2 * s * s).squareRoot()
        metresPerDegreeLatitude = Geodesic.semiMajorAxis * (1 - e2) / (w * w * w) * .pi / 180
        metresPerDegreeLongitude = max(Geodesic.semiMajorAxis / w * c * .pi / 180, 1)
    }

    /// A position moved by metres north and east, kept a valid coordinate (latitude clamped short of the poles,
    /// longitude wrapped).
    @inlinable @inline(__always)
    public static func move(
        _ latitude: Double, _ longitude: Double, north: Double, east: Double, metresPerDegreeLatitude: Double,
        metresPerDegreeLongitude: Double
    ) -> (latitude: Double, longitude: Double) {
        kept(latitude + north / metresPerDegreeLatitude, longitude + east / metresPerDegreeLongitude)
    }

    /// A moved position (``move(_:_:north:east:metresPerDegreeLatitude:metresPerDegreeLongitude:)`` before its last
    /// step) kept a valid coordinate: the latitude clamped short of the poles, the longitude wrapped once.
    @inlinable @inline(__always)
    public static func kept(_ latitude: Double, _ longitude: Double) -> (latitude: Double, longitude: Double) {
        let newLatitude = min(max(latitude, -89.999_999), 89.999_999)
        var newLongitude = longitude
        if newLongitude > 180 { newLongitude -= 360 } else if newLongitude < -180 { newLongitude += 360 }
        return (newLatitude, newLongitude)
    }

    @inlinable
    public func move(_ latitude: Double, _ longitude: Double, north: Double, east: Double) -> (latitude: Double, longitude: Double) {
        Self.move(
            latitude, longitude, north: north, east: east, metresPerDegreeLatitude: metresPerDegreeLatitude,
            metresPerDegreeLongitude: metresPerDegreeLongitude)
    }
}
