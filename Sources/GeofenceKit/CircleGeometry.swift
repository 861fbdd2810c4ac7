import Foundation

/// A circle on the WGS84 ellipsoid: every point whose geodesic distance to `center` is at most `radius` metres.
/// STUB: to be replaced by the fast, exact implementation.
public struct CircleGeometry: Sendable {
    public let center: Coordinate
    public let radius: Double

    public init(center: Coordinate, radius: Double) {
        self.center = center
        self.radius = radius
    }

    @inlinable
    public func contains(latitude: Double, longitude: Double) -> Bool {
        Geodesic.distance(
            latitude1: center.latitude, longitude1: center.longitude, latitude2: latitude, longitude2: longitude
        ) <= radius
    }
}
