import Foundation

/// Distances from a point to a polygon's boundary on the WGS84 ellipsoid, for the rules that compare them with a
/// threshold (hysteresis buffers, accuracy circles). Edges are straight in (longitude, latitude), as RFC 7946 says.
extension PolygonGeometry {
    /// Flattens rings into edges (four values each), skipping edges along a pole and zero-length edges.
    static func edges(of rings: [[Coordinate]]) -> [Double] {
        var edges: [Double] = []
        for ring in rings where ring.count > 1 {
            var closed = ring
            if let first = ring.first, let last = ring.last, first != last { closed.append(first) }
            for i in closed.indices.dropFirst() {
                let a = closed[i - 1], b = closed[i]
                if a == b || (abs(a.latitude) == 90 && a.latitude == b.latitude) { continue }
                edges += [a.longitude, a.latitude, b.longitude, b.latitude]
            }
        }
        return edges
    }

    /// The distance in metres from the point to the boundary on a plane at the point (longitudes taken the shorter
    /// way from it), with a bound on its error against ``geodesicBoundaryDistance(latitude:longitude:)``; the
    /// bound is +∞ beyond 75° of latitude or 100 km, where only the geodesic distance is trusted.
    ///
    /// The plane's scale is the point's: an edge point d metres away and Δφ from the point's latitude is off by
    /// about d·tan φ·|Δφ|/2 ≤ d²·tan φ/(2R) east–west, plus the mid-latitude plane's own third-order error; the
    /// bound doubles the first term and adds the second (``GuardedDistance``).
    public func planarBoundaryDistance(latitude: Double, longitude: Double) -> (distance: Double, bound: Double) {
        let scale = LocalScale(latitude: latitude)
        let kx = scale.metresPerDegreeLongitude, ky = scale.metresPerDegreeLatitude
        var nearest = Double.infinity
        var i = 0
        while i < boundaryEdges.count {
            let lonA = boundaryEdges[i], latA = boundaryEdges[i + 1]
            let lonB = boundaryEdges[i + 2], latB = boundaryEdges[i + 3]
            i += 4
            // The shorter way from the point (vertices of unwrapped rings stay within ±540°).
            var dLon = lonA - longitude
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            let ax = dLon * kx, ay = (latA - latitude) * ky
            let dx = (lonB - lonA) * kx, dy = (latB - latA) * ky
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length2)) : 0
            let ex = ax + t * dx, ey = ay + t * dy
            nearest = min(nearest, ex * ex + ey * ey)
        }
        let distance = nearest.squareRoot()
        let phi = latitude * Geodesic.radiansPerDegree
        let reach = 1.1 * distance + 100
        guard abs(latitude) <= 75, reach <= 100_000 else { return (distance, .infinity) }
        let tanPhi = abs(tan(phi))
        let firstOrder = reach * reach * (tanPhi + 0.1) / Geodesic.semiMajorAxis
        let thirdOrder = GuardedDistance.planeErrorBound(planarDistance: reach, latitude: latitude)
        return (distance, firstOrder + thirdOrder + 1e-3)
    }

    /// The geodesic distance in metres from the point to the nearest point of any boundary edge, each edge a
    /// straight line in (longitude, latitude).
    ///
    /// Each edge is sampled at 9 points; edges whose samples could hide a nearer point (by the largest gap
    /// between samples) are then minimised by golden-section search around their nearest sample, to well under a
    /// millimetre. (An edge whose distance has two separate minima — longer than the distance to it, bending
    /// round the point — could be resolved to the wrong one; edges are rarely that long near a fence.)
    public func geodesicBoundaryDistance(latitude: Double, longitude: Double) -> Double {
        func distance(_ i: Int, _ t: Double) -> Double {
            let lonA = boundaryEdges[i], latA = boundaryEdges[i + 1]
            return Geodesic.distance(
                latitude1: latitude, longitude1: longitude, latitude2: latA + t * (boundaryEdges[i + 3] - latA),
                longitude2: lonA + t * (boundaryEdges[i + 2] - lonA))
        }
        let samples = 8
        var coarse: [(edge: Int, best: Double, bestT: Double, slack: Double)] = []
        var bestCoarse = Double.infinity
        var i = 0
        while i < boundaryEdges.count {
            var best = Double.infinity, bestT = 0.0
            for k in 0...samples {
                let t = Double(k) / Double(samples)
                let d = distance(i, t)
                if d < best { (best, bestT) = (d, t) }
            }
            // Neighbouring samples are at most this far apart (metres per degree are below 111.7 km along a
            // meridian and 111.7 km · cos φ along a parallel, largest at the edge's most equatorward latitude).
            let latA = boundaryEdges[i + 1], latB = boundaryEdges[i + 3]
            let equatorward = latA * latB <= 0 ? 0 : min(abs(latA), abs(latB))
            let cosMax = cos(equatorward * Geodesic.radiansPerDegree)
            let slack = 111_700 / Double(samples) * (abs(latB - latA) + abs(boundaryEdges[i + 2] - boundaryEdges[i]) * cosMax)
            coarse.append((i, best, bestT, slack))
            bestCoarse = min(bestCoarse, best)
            i += 4
        }
        var nearest = bestCoarse
        for candidate in coarse where candidate.best - candidate.slack <= nearest {
            // Golden-section search around the best sample.
            var low = max(0, candidate.bestT - 1 / Double(samples))
            var high = min(1, candidate.bestT + 1 / Double(samples))
            let ratio = (5.0.squareRoot() - 1) / 2
            var x1 = high - ratio * (high - low), x2 = low + ratio * (high - low)
            var f1 = distance(candidate.edge, x1), f2 = distance(candidate.edge, x2)
            for _ in 0..<40 {
                if f1 < f2 {
                    high = x2; x2 = x1; f2 = f1
                    x1 = high - ratio * (high - low); f1 = distance(candidate.edge, x1)
                } else {
                    low = x1; x1 = x2; f1 = f2
                    x2 = low + ratio * (high - low); f2 = distance(candidate.edge, x2)
                }
            }
            nearest = min(nearest, f1, f2, candidate.best)
        }
        return nearest
    }

    /// The signed distance (positive inside) to be compared with `first` and `second`: on the plane where it is
    /// further than its error bound from both, on the ellipsoid otherwise (see ``GuardedDistance``).
    func signedBoundaryDistance(latitude: Double, longitude: Double, comparedWith first: Double, _ second: Double)
        -> Double
    {
        let sign: Double = contains(latitude: latitude, longitude: longitude) ? 1 : -1
        let (planar, bound) = planarBoundaryDistance(latitude: latitude, longitude: longitude)
        let signed = sign * planar
        if bound.isFinite && abs(signed - first) > bound && abs(signed - second) > bound { return signed }
        return sign * geodesicBoundaryDistance(latitude: latitude, longitude: longitude)
    }

    /// A decision monotone in the signed distance to the boundary, taken on the plane where its error cannot
    /// change it and on the ellipsoid otherwise.
    func decideOnSignedBoundaryDistance<Decision: Equatable>(
        latitude: Double, longitude: Double, _ decision: (Double) -> Decision
    ) -> Decision {
        let sign: Double = contains(latitude: latitude, longitude: longitude) ? 1 : -1
        let (planar, bound) = planarBoundaryDistance(latitude: latitude, longitude: longitude)
        if bound.isFinite {
            let low = decision(sign * planar - bound)
            if low == decision(sign * planar + bound) { return low }
        }
        return decision(sign * geodesicBoundaryDistance(latitude: latitude, longitude: longitude))
    }
}
