/// The shape of a region, compiled for fast containment tests.
public enum RegionGeometry: Sendable {
    case circle(CircleGeometry)
    case polygon(PolygonGeometry)

    /// Whether the point is inside; the boundary counts as inside for every shape.
    @inlinable
    public func contains(latitude: Double, longitude: Double) -> Bool {
        switch self {
        case .circle(let circle): circle.contains(latitude: latitude, longitude: longitude)
        case .polygon(let polygon): polygon.contains(latitude: latitude, longitude: longitude)
        }
    }
}
