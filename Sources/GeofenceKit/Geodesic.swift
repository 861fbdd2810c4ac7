import Foundation

/// Distances on the WGS84 ellipsoid.  STUB (haversine) to be replaced by an exact inverse solution.
public enum Geodesic {
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let r = 6_371_008.8
        let p1 = latitude1 * .pi / 180, p2 = latitude2 * .pi / 180
        let dp = p2 - p1, dl = (longitude2 - longitude1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }
}
