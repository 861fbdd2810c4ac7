import Foundation

/// Geodesics on the WGS84 ellipsoid, solved with Vincenty's formulae (1975).
///
/// Geofence decisions are made against the true ellipsoidal distance, not a spherical one: a sphere is off by up to
/// 0.5 %, i.e. 50 m on a 10 km radius, which would move region boundaries by far more than GPS noise.
/// Vincenty's series are accurate to about 0.1 mm against Karney's exact algorithm (geographiclib), which the tests
/// check with reference values from geographiclib. The sine and cosine of one angle are taken in one call
/// (``SineAndCosine``: the same values; a generated catalog places a million circles with the direct formula).
public enum Geodesic {
    /// WGS84 semi-major axis (equatorial radius) in metres.
    public static let semiMajorAxis = 6_378_137.0
    /// WGS84 flattening.
    public static let flattening = 1 / 298.257_223_563
    /// WGS84 semi-minor axis (polar radius) in metres, `a · (1 − f)`.
    public static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    /// First eccentricity squared, `f · (2 − f)`.
    public static let eccentricitySquared = flattening * (2 - flattening)
    /// Second eccentricity squared, `(a² − b²) / b²`.
    public static let secondEccentricitySquared =
        (semiMajorAxis * semiMajorAxis - semiMinorAxis * semiMinorAxis) / (semiMinorAxis * semiMinorAxis)

    /// π/180 as a literal so that inlined callers get a constant instead of a lazily initialised global.
    @usableFromInline static var radiansPerDegree: Double { 0.017_453_292_519_943_295 }

    /// Vincenty's iteration stops when the auxiliary longitude changes by less than this (radians, ≈ 6 µm).
    static let convergenceThreshold = 1e-12
    /// Lines that need more iterations than this are near-antipodal; see ``distance(latitude1:longitude1:latitude2:longitude2:)``.
    static let maximumIterations = 200

    /// The geodesic (shortest) distance in metres between two positions given in degrees.
    ///
    /// Uses Vincenty's inverse formula iterated until the auxiliary longitude λ changes by less than 1e-12 rad.
    /// Coincident points give 0; lines along the equator are handled (cos²α = 0).
    ///
    /// Vincenty's iteration does not converge for some nearly antipodal points (all more than 19,900 km apart).
    /// Those are then solved by bisection on λ, or, when the two points are antipodal on the auxiliary sphere, by the
    /// σ = π solution for the azimuth, or along the meridian when they are on opposite meridians. The result is an
    /// approximation: over 20,000 random near-antipodal pairs it stayed within 5 cm (2.5e-9 relative) of
    /// geographiclib, and within ~0.1 mm for most of them.
    /// Longitudes may be any finite values (the difference is wrapped); non-finite input gives NaN.
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        guard latitude1.isFinite, longitude1.isFinite, latitude2.isFinite, longitude2.isFinite else { return .nan }
        let lambda0 = (longitude2 - longitude1).remainder(dividingBy: 360) * radiansPerDegree
        // Solve for a non-negative longitude difference; the distance is symmetric in its sign.
        let longitudeDifference = abs(lambda0)
        let point1 = ReducedLatitude(degrees: latitude1)
        let point2 = ReducedLatitude(degrees: latitude2)

        var lambda = longitudeDifference
        for _ in 0..<maximumIterations {
            let terms = AuxiliaryTerms(lambda: lambda, point1, point2)
            if terms.sinSigma == 0 && terms.cosSigma > 0 { return 0 }
            let next = longitudeDifference + terms.longitudeCorrection
            if abs(next - lambda) < convergenceThreshold {
                // Evaluate at the updated λ: the iteration contracts by ~f per step, so `next` is ~300× closer to the
                // solution than `lambda`, whose error (up to 1e-12 rad) would be 6 µm on the ground.
                return AuxiliaryTerms(lambda: next, point1, point2).distance
            }
            lambda = next
        }
        return nearlyAntipodalDistance(longitudeDifference: longitudeDifference, point1, point2)
    }

    /// The position reached from a start position by travelling `distance` metres along the geodesic that leaves it
    /// at `bearing` degrees clockwise from north (Vincenty's direct formula).
    ///
    /// Used to place test points at exact distances and by the random-walk generator. The returned longitude is
    /// normalised to [−180, 180]. Negative distances travel backwards along the same geodesic.
    public static func destination(
        latitude: Double, longitude: Double, bearing: Double, distance: Double
    ) -> (latitude: Double, longitude: Double) {
        destination(from: DirectStart(latitude: latitude, longitude: longitude), bearing: bearing, distance: distance)
    }

    /// A start position of the direct formula with its reduced latitude computed once: destinations from one start
    /// (a generated catalog places a million centres from the walk's centre) pay its trigonometry once.
    public struct DirectStart: Sendable {
        public let latitude: Double
        public let longitude: Double
        let reduced: ReducedLatitude

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
            reduced = ReducedLatitude(degrees: latitude)
        }
    }

    /// ``destination(latitude:longitude:bearing:distance:)`` from a start computed once: the same position.
    ///
    /// The arc is iterated with bracketed sines and cosines (``DirectLine/arc()``), the same arc bit for bit as with
    /// the library's, so the same position: a generated catalog places a million centres this way.
    public static func destination(
        from origin: DirectStart, bearing: Double, distance: Double
    ) -> (latitude: Double, longitude: Double) {
        let line = DirectLine(from: origin, bearing: bearing, distance: distance)
        return line.end(atArc: line.arc())
    }

    /// Handles the lines on which Vincenty's fixed-point iteration oscillates (nearly antipodal points).
    ///
    /// The longitude equation g(λ) = L + correction(λ) − λ is positive at λ = L, and the solution lies in [L, π]:
    /// - If the points are not antipodal on the auxiliary sphere (U1 + U2 ≠ 0), g(π) = L − π ≤ 0 and bisection on
    ///   [L, π] finds the root the fixed-point iteration failed to reach. When L rounds to π the root is π itself:
    ///   the geodesic runs along the meridian over a pole (α = 0).
    /// - If they are (symmetric about the equator, to within `symmetryTolerance`), every great circle through them
    ///   has σ = π and λ = π, bisection on λ is ill-conditioned, and the longitude equation fixes sin α directly.
    private static func nearlyAntipodalDistance(
        longitudeDifference: Double, _ point1: ReducedLatitude, _ point2: ReducedLatitude
    ) -> Double {
        let symmetryTolerance = 3e-10
        if abs(point1.sinU + point2.sinU) >= symmetryTolerance || longitudeDifference == .pi {
            let equationAtPi = longitudeDifference + AuxiliaryTerms(lambda: .pi, point1, point2).longitudeCorrection - .pi
            guard equationAtPi < 0 else {
                return AuxiliaryTerms(lambda: .pi, point1, point2, meridional: true).distance
            }
            var low = longitudeDifference, high = Double.pi
            for _ in 0..<64 {
                let middle = 0.5 * (low + high)
                let equation = longitudeDifference + AuxiliaryTerms(lambda: middle, point1, point2).longitudeCorrection - middle
                if equation > 0 { low = middle } else { high = middle }
            }
            return AuxiliaryTerms(lambda: 0.5 * (low + high), point1, point2).distance
        }
        var c = 0.0
        var cosSquaredAlpha = 1.0
        for _ in 0..<10 {
            let sinAlpha = min(1, (.pi - longitudeDifference) / ((1 - c) * flattening * .pi))
            cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            c = flattening / 16 * cosSquaredAlpha * (4 + flattening * (4 - 3 * cosSquaredAlpha))
        }
        return semiMinorAxis * DistanceSeries(cosSquaredAlpha: cosSquaredAlpha).a * .pi
    }
}

/// sin and cos of the reduced (parametric) latitude U, where tan U = (1 − f) tan φ.
///
/// Computed from sin φ and cos φ rather than through tan φ so that the poles need no special case.
struct ReducedLatitude {
    let sinU: Double
    let cosU: Double

    init(degrees: Double) {
        let phi = degrees * Geodesic.radiansPerDegree
        let (sinPhi, c) = SineAndCosine.of(phi)
        let s = (1 - Geodesic.flattening) * sinPhi
        let h = (s * s + c * c).squareRoot()
        sinU = s / h
        cosU = c / h
    }
}

/// The quantities of Vincenty's inverse formula for one trial value of the auxiliary longitude λ.
private struct AuxiliaryTerms {
    let sinSigma: Double
    let cosSigma: Double
    let sigma: Double
    let sinAlpha: Double
    let cosSquaredAlpha: Double
    let cos2SigmaM: Double

    /// - Parameter meridional: forces α = 0 (a line over a pole), where sin α would otherwise be 0/0.
    init(lambda: Double, _ p1: ReducedLatitude, _ p2: ReducedLatitude, meridional: Bool = false) {
        let (sinLambda, cosLambda) = SineAndCosine.of(lambda)
        let a = p2.cosU * sinLambda
        let b = p1.cosU * p2.sinU - p1.sinU * p2.cosU * cosLambda
        sinSigma = (a * a + b * b).squareRoot()
        cosSigma = p1.sinU * p2.sinU + p1.cosU * p2.cosU * cosLambda
        sigma = atan2(sinSigma, cosSigma)
        sinAlpha = meridional || sinSigma == 0 ? 0 : min(1, max(-1, p1.cosU * p2.cosU * sinLambda / sinSigma))
        cosSquaredAlpha = 1 - sinAlpha * sinAlpha
        // On the equator cos²α = 0 and cos 2σm is conventionally 0 (its term is multiplied by cos²α anyway).
        cos2SigmaM = cosSquaredAlpha == 0 ? 0 : cosSigma - 2 * p1.sinU * p2.sinU / cosSquaredAlpha
    }

    /// λ − L: how much the auxiliary-sphere longitude exceeds the ellipsoidal one for this geodesic.
    var longitudeCorrection: Double {
        let f = Geodesic.flattening
        let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
        return (1 - c) * f * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
    }

    /// The geodesic length s = b · A · (σ − Δσ).
    var distance: Double {
        let series = DistanceSeries(cosSquaredAlpha: cosSquaredAlpha)
        return Geodesic.semiMinorAxis * series.a
            * (sigma - series.deltaSigma(sinSigma: sinSigma, cosSigma: cosSigma, cos2SigmaM: cos2SigmaM))
    }
}

/// Vincenty's series coefficients A and B, which depend only on the geodesic's equatorial azimuth α.
struct DistanceSeries {
    let a: Double
    let b: Double

    init(cosSquaredAlpha: Double) {
        let u2 = cosSquaredAlpha * Geodesic.secondEccentricitySquared
        a = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
        b = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
    }

    /// Δσ, the difference between the arc on the auxiliary sphere and the scaled ellipsoidal length.
    func deltaSigma(sinSigma: Double, cosSigma: Double, cos2SigmaM: Double) -> Double {
        let c2 = cos2SigmaM * cos2SigmaM
        return b * sinSigma
            * (cos2SigmaM + b / 4
                * (cosSigma * (-1 + 2 * c2) - b / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * c2)))
    }
}
