import Foundation

/// Where a point lies relative to a region's boundary, for hysteresis and Android's confidence rule.
extension RegionGeometry {
    /// A size for the region in metres: a circle's radius; half the smaller side of a polygon's bounding box.
    public var characteristicRadius: Double {
        switch self {
        case .circle(let circle): circle.radius
        case .polygon(let polygon): polygon.halfExtent
        }
    }

    /// The distance from the point to the boundary in metres, positive inside and negative outside: for a circle,
    /// radius minus the geodesic distance to the centre; for a polygon, the geodesic distance to the nearest edge.
    public func signedBoundaryDistance(latitude: Double, longitude: Double) -> Double {
        switch self {
        case .circle(let circle):
            return circle.radius - circle.geodesicCentreDistance(latitude: latitude, longitude: longitude)
        case .polygon(let polygon):
            let distance = polygon.geodesicBoundaryDistance(latitude: latitude, longitude: longitude)
            return polygon.contains(latitude: latitude, longitude: longitude) ? distance : -distance
        }
    }

    /// The fraction (0…1) of a circle of `accuracy` metres around the point that overlaps the region.
    ///
    /// Circles use the exact area of the lens two circles share, at the geodesic distance between their centres; polygons treat the boundary near the point as a
    /// straight line (the area of a circular segment), which is exact for straight edges.
    public func overlapFraction(latitude: Double, longitude: Double, accuracy: Double) -> Double {
        let a = accuracy
        switch self {
        case .circle(let circle):
            let d = circle.geodesicCentreDistance(latitude: latitude, longitude: longitude)
            return Self.lensFraction(distance: d, accuracy: a, radius: circle.radius)
        case .polygon:
            let s = signedBoundaryDistance(latitude: latitude, longitude: longitude)
            return Self.halfPlaneFraction(signedDistance: s, accuracy: a)
        }
    }

    /// The share of a circle of radius `accuracy` (centred `distance` from the fence's centre) inside the fence.
    static func lensFraction(distance d: Double, accuracy a: Double, radius r: Double) -> Double {
        if d >= a + r { return 0 }
        if d + a <= r { return 1 }
        if d + r <= a { return (r * r) / (a * a) }
        let alpha = acos(max(-1, min(1, (d * d + a * a - r * r) / (2 * d * a))))
        let beta = acos(max(-1, min(1, (d * d + r * r - a * a) / (2 * d * r))))
        let lens = a * a * (alpha - sin(2 * alpha) / 2) + r * r * (beta - sin(2 * beta) / 2)
        return min(1, max(0, lens / (Double.pi * a * a)))
    }

    /// The share of a circle of radius `accuracy` on the inner side of a straight boundary `signedDistance` away.
    static func halfPlaneFraction(signedDistance s: Double, accuracy a: Double) -> Double {
        if s >= a { return 1 }
        if s <= -a { return 0 }
        let h = abs(s)
        let segment = a * a * acos(h / a) - h * (a * a - h * h).squareRoot()
        let outsideShare = segment / (Double.pi * a * a)
        return s >= 0 ? 1 - outsideShare : outsideShare
    }
}
