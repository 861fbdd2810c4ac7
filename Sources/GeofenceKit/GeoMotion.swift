import Foundation

/// Moving generated positions (playback between waypoints, position jitter and noise, random-walk starts and
/// generated regions) so that they are right everywhere on Earth: across the antimeridian they take the shorter
/// way, and near the poles they follow the great circle (over the pole if that is shorter) instead of a line in
/// (longitude, latitude).
///
/// Short moves far from the poles keep the cheap local plane (``LocalScale``), whose error there is far below a
/// metre; everything else is solved on the ellipsoid or on the auxiliary sphere.
public enum GeoMotion {
    /// The plane is used for moves up to this many metres…
    @inlinable static var planeDistanceLimit: Double { 20_000 }
    /// …from positions at most this far from the equator (degrees).
    @inlinable static var planeLatitudeLimit: Double { 80 }

    /// A position moved by metres north and east: along the geodesic that leaves it at bearing atan2(east, north)
    /// for √(north² + east²) metres. The result is a valid coordinate (longitude in [−180, 180]).
    public static func move(_ latitude: Double, _ longitude: Double, north: Double, east: Double) -> (
        latitude: Double, longitude: Double
    ) {
        move(latitude, longitude, north: north, east: east, scale: nil)
    }

    /// ``move(_:_:north:east:)`` with the position's ``LocalScale`` (`LocalScale(latitude: latitude)`) computed by
    /// the caller: many moves from one position pay for its trigonometry once. The same result.
    ///
    /// Inlinable, the plane's branch at least: generated regions move 20 centres per device this way.
    @inlinable
    public static func move(_ latitude: Double, _ longitude: Double, north: Double, east: Double, scale: LocalScale?)
        -> (latitude: Double, longitude: Double)
    {
        let squared = north * north + east * east
        if squared == 0 { return (latitude, longitude) }
        if isOnPlane(latitude: latitude, squared: squared) {
            return (scale ?? LocalScale(latitude: latitude)).move(latitude, longitude, north: north, east: east)
        }
        return geodesicMove(
            from: Geodesic.DirectStart(latitude: latitude, longitude: longitude), north: north, east: east,
            distance: squared.squareRoot())
    }

    /// ``move(_:_:north:east:scale:)`` from a start whose plane (`scale`) and geodesic terms (`start`) the caller
    /// computed once for many moves (a generated catalog moves a million centres from the walk's centre): the same
    /// result.
    public static func move(from start: Geodesic.DirectStart, scale: LocalScale, north: Double, east: Double) -> (
        latitude: Double, longitude: Double
    ) {
        let squared = north * north + east * east
        if squared == 0 { return (start.latitude, start.longitude) }
        if isOnPlane(latitude: start.latitude, squared: squared) {
            return scale.move(start.latitude, start.longitude, north: north, east: east)
        }
        return geodesicMove(from: start, north: north, east: east, distance: squared.squareRoot())
    }

    /// Whether a move of √`squared` metres from this latitude is made on the plane.
    @inlinable @inline(__always)
    static func isOnPlane(latitude: Double, squared: Double) -> Bool {
        // √squared ≤ limit wherever squared ≤ limit² (the root is correctly rounded, hence monotonic): the root is
        // taken only near the limit, where the two tests may differ, and off the plane.
        let limit = planeDistanceLimit
        return abs(latitude) <= planeLatitudeLimit && (squared <= limit * limit || squared.squareRoot() <= limit)
    }

    /// ``move(_:_:north:east:scale:)`` off the plane: along the geodesic, `distance` being √(north² + east²).
    @usableFromInline
    static func geodesicMove(from start: Geodesic.DirectStart, north: Double, east: Double, distance: Double)
        -> (latitude: Double, longitude: Double)
    {
        let bearing = atan2(east, north) / Geodesic.radiansPerDegree
        let end = Geodesic.destination(from: start, bearing: bearing, distance: distance)
        return (min(max(end.latitude, -90), 90), normalizedLongitude(end.longitude))
    }

    /// The position a fraction `f` (0…1) of the way from the first point to the second, along the shorter way.
    ///
    /// A leg under 0.003° in latitude and in longitude (taken across ±180° when shorter; at most about 470 m)
    /// between 70° S and 70° N is interpolated linearly in (latitude, longitude): within 7 mm of the geodesic
    /// position at the same fraction of its length (geographiclib). Any other leg follows the shorter great circle
    /// through its ends on the auxiliary sphere of reduced latitudes (the sphere on which ellipsoidal geodesics are
    /// drawn), passing over a pole when that is shorter: within 0.1 mm of the geodesic position for 1 km legs,
    /// 1 cm for 10 km, 0.7 m for 100 km and 70 m (0.007 %) for 1,000 km.
    @inlinable
    public static func interpolate(
        _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double, fraction f: Double
    ) -> (latitude: Double, longitude: Double) {
        var dLon = longitude2 - longitude1
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let dLat = latitude2 - latitude1
        if isLinear(latitude1, latitude2, dLat: dLat, dLon: dLon) {
            return (latitude1 + f * dLat, normalizedLongitude(longitude1 + f * dLon))
        }
        // The ends exactly, not through the round trip to vectors.
        if f <= 0 { return (latitude1, normalizedLongitude(longitude1)) }
        if f >= 1 { return (latitude2, normalizedLongitude(longitude2)) }
        return greatCircleInterpolation(latitude1, longitude1, latitude2, longitude2, fraction: f)
    }

    /// Whether ``interpolate(_:_:_:_:fraction:)`` moves linearly in (latitude, longitude) along this leg.
    @inlinable
    public static func interpolatesLinearly(
        _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double
    ) -> Bool {
        var dLon = longitude2 - longitude1
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return isLinear(latitude1, latitude2, dLat: latitude2 - latitude1, dLon: dLon)
    }

    @inlinable @inline(__always)
    static func isLinear(_ latitude1: Double, _ latitude2: Double, dLat: Double, dLon: Double) -> Bool {
        abs(dLat) <= 0.003 && abs(dLon) <= 0.003 && abs(latitude1) <= 70 && abs(latitude2) <= 70
    }

    /// Spherical linear interpolation of the unit vectors of the two points' reduced latitudes and longitudes.
    @usableFromInline
    static func greatCircleInterpolation(
        _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double, fraction f: Double
    ) -> (latitude: Double, longitude: Double) {
        let k = Geodesic.radiansPerDegree
        let oneMinusF = 1 - Geodesic.flattening
        func vector(_ latitude: Double, _ longitude: Double) -> (Double, Double, Double) {
            let phi = latitude * k
            let beta = atan2(oneMinusF * sin(phi), cos(phi))  // the reduced latitude
            let lambda = longitude * k
            return (cos(beta) * cos(lambda), cos(beta) * sin(lambda), sin(beta))
        }
        let a = vector(latitude1, longitude1)
        let b = vector(latitude2, longitude2)
        let cross = (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
        let sinAngle = (cross.0 * cross.0 + cross.1 * cross.1 + cross.2 * cross.2).squareRoot()
        let angle = atan2(sinAngle, a.0 * b.0 + a.1 * b.1 + a.2 * b.2)
        let wa: Double, wb: Double
        if sinAngle < 1e-12 {
            // Coincident (or antipodal, where every great circle is as short): stay on the straight chord.
            wa = 1 - f
            wb = f
        } else {
            wa = sin((1 - f) * angle) / sinAngle
            wb = sin(f * angle) / sinAngle
        }
        let x = wa * a.0 + wb * b.0, y = wa * a.1 + wb * b.1, z = wa * a.2 + wb * b.2
        // Back from the reduced latitude: tan φ = tan β / (1 − f).
        let horizontal = x * x + y * y
        let latitude = atan2(z, oneMinusF * horizontal.squareRoot()) / k
        // At a pole the longitude is arbitrary: keep the nearer end's.
        let longitude = horizontal > 1e-30 ? atan2(y, x) / k : (f < 0.5 ? longitude1 : longitude2)
        return (min(max(latitude, -90), 90), normalizedLongitude(longitude))
    }

    /// A longitude brought into [−180, 180].
    @inlinable
    public static func normalizedLongitude(_ longitude: Double) -> Double {
        if longitude >= -180 && longitude <= 180 { return longitude }
        let wrapped = longitude.remainder(dividingBy: 360)
        return wrapped == -180 ? 180 : wrapped
    }
}
