/// The containment test of the exact path, with the clearance it yields for ``BoundaryClearance``.
extension PackedRegion {
    /// Whether a circle contains the point (the same decision as ``circleContains(latitude:longitude:)``), and
    /// a lower bound of the geodesic distance from the point to the circle's boundary, folded into `clearance`
    /// (which keeps the smallest).
    ///
    /// Where the plane decides, its error bound is subtracted: inside, the margin (the plane errs by less at
    /// every distance up to the radius); outside, the bound at the distance the clearance is capped at, which holds
    /// for every point beyond by the argument of ``CircleGeometry``'s margin (a path from the centre would meet a
    /// point at that planar distance whose error exceeds the bound). Near the boundary the geodesic is exact.
    @inline(__always)
    func circleContains(latitude pointLatitude: Double, longitude pointLongitude: Double, clearance: inout Double)
        -> Bool
    {
        let planarSquared = planarDistanceSquared(latitude: pointLatitude, longitude: pointLongitude)
        let margin = Double(self.margin)
        let inner = radius - margin
        let outer = radius + margin
        if planarSquared > outer * outer {
            let beyond = min(planarSquared.squareRoot() - radius, BoundaryClearance.maximumRadius)
            clearance = min(clearance, beyond - BoundaryClearance.planarError(atDistance: radius + beyond))
            return false
        }
        if inner > 0 && planarSquared <= inner * inner {
            clearance = min(clearance, inner - planarSquared.squareRoot())
            return true
        }
        let distance = Geodesic.distance(
            latitude1: latitude, longitude1: longitude, latitude2: pointLatitude, longitude2: pointLongitude)
        // The geodesic's own rounding is far below a micrometre.
        clearance = min(clearance, abs(distance - radius) - 1e-6)
        return distance <= radius
    }
}
