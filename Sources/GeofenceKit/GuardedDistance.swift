import Foundation

/// The one distance service of the core: every rule that compares a distance with a threshold (containment,
/// hysteresis buffers, accuracy circles, the dwell and exit decisions built on them, source distance filters) asks
/// it, so that none uses the cheap plane where the plane could be wrong.
///
/// The cheap estimate is the mid-latitude plane of ``MidLatitudePlane`` (what ``CircleGeometry`` and the monitor
/// compute per point). Its error against the WGS84 geodesic distance s is at most k(φ0)·s³ for s ≤ 100 km and a
/// first point at |φ0| ≤ 75° (see ``CircleGeometry`` for the fit against geographiclib). The service turns that into
/// a bound on the planar value itself, ``planeErrorBound(planarDistance:latitude:)``, and a comparison is left to the
/// plane only when every threshold is further than the bound from the planar distance; otherwise, and everywhere
/// outside the validated domain (|φ0| > 75°, distances near or beyond 100 km), the exact geodesic
/// (``Geodesic/distance(latitude1:longitude1:latitude2:longitude2:)``) decides.
public enum GuardedDistance {
    /// A bound on |planar − geodesic| in metres for a planar distance from a first point at `latitude`: the
    /// fitted bound doubled, plus 1 µm for rounding; +∞ where the plane was not validated (the exact path decides).
    ///
    /// Why it holds: a planar distance p ≤ 100 km − 40 m puts the point within 100 km (the bound at 100 km is at
    /// most 34 m), where |p − s| ≤ k·s³ and s ≤ p + 17 m; 2·k·(p + 40 m)³ exceeds that.
    @inlinable
    public static func planeErrorBound(planarDistance: Double, latitude: Double) -> Double {
        let phi = latitude * Geodesic.radiansPerDegree
        return planeErrorBound(planarDistance: planarDistance, sinLatitude: sin(phi), cosLatitude: cos(phi))
    }

    /// ``planeErrorBound(planarDistance:latitude:)`` with the first point's sin and cos of latitude precomputed.
    @inlinable
    public static func planeErrorBound(planarDistance: Double, sinLatitude: Double, cosLatitude: Double) -> Double {
        let s = planarDistance + 40
        // cos 75° = 0.2588…: beyond 75° (or for NaN) the plane is not trusted.
        guard s <= 100_000, cosLatitude >= 0.258_819_045_102_521, planarDistance >= 0 else { return .infinity }
        let tan2 = sinLatitude * sinLatitude / (cosLatitude * cosLatitude)
        let k = 2.4e-16 + 1.2e-15 * tan2
        return 2 * k * s * s * s + 1e-6
    }

    /// ``planeErrorBound(planarDistance:sinLatitude:cosLatitude:)`` never exceeds this where it is finite:
    /// 2 · (2.4e-16 + 1.2e-15 · tan²75°) · (100 km)³ + 1 µm = 33.9 m.
    static let largestFiniteBound = 34.0

    /// The distance in metres between two points, good enough to be compared with the thresholds `first` and
    /// `second` (pass one twice to compare with one): the planar distance `planar` when it is further than its
    /// error bound from both (it is then on the same side of each as the geodesic distance), the geodesic distance
    /// otherwise.
    ///
    /// - Parameters:
    ///   - planar: the mid-latitude-plane distance from the first point to the second.
    ///   - sinLatitude, cosLatitude: of the first point's latitude (the plane's centre).
    public static func distance(
        planar: Double, sinLatitude: Double, cosLatitude: Double, latitude1: Double, longitude1: Double,
        latitude2: Double, longitude2: Double, comparedWith first: Double, _ second: Double
    ) -> Double {
        // Most points are far from both thresholds: the largest finite bound (34 m, at 75° and 100 km) settles them
        // without computing theirs.
        if planar <= 99_960 && cosLatitude >= 0.258_819_045_102_521 && abs(planar - first) > largestFiniteBound
            && abs(planar - second) > largestFiniteBound
        {
            return planar
        }
        let bound = planeErrorBound(planarDistance: planar, sinLatitude: sinLatitude, cosLatitude: cosLatitude)
        if bound.isFinite && abs(planar - first) > bound && abs(planar - second) > bound { return planar }
        return Geodesic.distance(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
    }

    /// The distance in metres between two points, good enough to be compared with `threshold`: computed on the
    /// mid-latitude plane of the first point, and on the ellipsoid where the plane could be on the wrong side.
    public static func distance(
        latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double, comparedWith threshold: Double
    ) -> Double {
        let plane = CircleGeometry(center: Coordinate(unchecked: latitude1, longitude1), radius: 0)
        return distance(
            planar: plane.planarDistanceSquared(latitude: latitude2, longitude: longitude2).squareRoot(),
            sinLatitude: plane.sinLatitude, cosLatitude: plane.cosLatitude, latitude1: latitude1,
            longitude1: longitude1, latitude2: latitude2, longitude2: longitude2, comparedWith: threshold, threshold)
    }

    /// A decision that depends on a distance monotonically — as the distance grows it only moves one way through
    /// ordered outcomes, such as inside / undecided / outside from the share of an accuracy circle inside a fence:
    /// taken on the plane when it is the same at both ends of the plane's error interval (so on all of it),
    /// otherwise on the geodesic distance.
    public static func decide<Decision: Equatable>(
        planar: Double, sinLatitude: Double, cosLatitude: Double, latitude1: Double, longitude1: Double,
        latitude2: Double, longitude2: Double, _ decision: (Double) -> Decision
    ) -> Decision {
        let bound = planeErrorBound(planarDistance: planar, sinLatitude: sinLatitude, cosLatitude: cosLatitude)
        if bound.isFinite {
            let near = decision(max(0, planar - bound))
            if near == decision(planar + bound) { return near }
        }
        return decision(
            Geodesic.distance(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2))
    }

}
