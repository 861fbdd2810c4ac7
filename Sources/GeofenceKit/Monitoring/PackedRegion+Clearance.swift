/// The containment test of the exact path, with the clearance it yields for ``BoundaryClearance``.
extension PackedRegion {
    /// Whether a circle of `radius` metres (the slot's, or its exact value) contains the sample (the boundary is
    /// inside), and a lower bound of the geodesic distance from the sample to the circle's boundary, folded into
    /// `clearance` (which keeps the smallest).
    ///
    /// Where the plane decides (``SamplePlane``), its error bound is subtracted: inside, the margin (s ≤ planar +
    /// k·s³ ≤ planar + k·r³); outside, the bound at the distance the clearance is capped at (a centre nearer than
    /// that, less the bound, would have a smaller planar distance). Near the boundary the geodesic is exact.
    @inline(__always)
    func circleContains(_ sample: SamplePlane, radius: Double, clearance: inout Double) -> Bool {
        let planarSquared = sample.distanceSquared(latitude: latitude, longitude: longitude)
        let margin = sample.margin(radius: radius)
        let inner = radius - margin
        let outer = radius + margin
        if planarSquared > outer * outer {
            let beyond = min(planarSquared.squareRoot() - radius, BoundaryClearance.maximumRadius)
            clearance = min(clearance, beyond - sample.error(atDistance: radius + beyond))
            return false
        }
        if inner > 0 && planarSquared <= inner * inner {
            clearance = min(clearance, inner - planarSquared.squareRoot())
            return true
        }
        let distance = geodesicDistance(to: sample)
        // The geodesic's own rounding is far below a micrometre.
        clearance = min(clearance, abs(distance - radius) - 1e-6)
        return distance <= radius
    }
}
