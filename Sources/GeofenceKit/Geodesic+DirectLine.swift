import Foundation

/// Vincenty's direct formula in its three steps: the line's constants from the start and the bearing, the arc on the
/// auxiliary sphere (a fixed-point iteration), and the end from that arc.
///
/// Apart so that the arc can be iterated with fewer calls of the C library (``arc()``) and compared with the plain
/// iteration (``arcByLibrary()``): both give the same arc bit for bit, hence the same end.
struct DirectLine {
    let origin: Geodesic.DirectStart
    let sinAlpha1: Double
    let cosAlpha1: Double
    /// The arc from the equator to the start on the auxiliary sphere.
    let sigma1: Double
    /// The sine and the squared cosine of the line's azimuth at the equator.
    let sinAlpha: Double
    let cosSquaredAlpha: Double
    let series: DistanceSeries
    /// The arc of the distance on a sphere of radius b·A, where the iteration starts.
    let sigmaFirstGuess: Double

    init(from origin: Geodesic.DirectStart, bearing: Double, distance: Double) {
        let start = origin.reduced
        let alpha1 = bearing * Geodesic.radiansPerDegree
        let (sinAlpha1, cosAlpha1) = SineAndCosine.of(alpha1)
        let sinAlpha = start.cosU * sinAlpha1
        let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
        let series = DistanceSeries(cosSquaredAlpha: cosSquaredAlpha)
        self.origin = origin
        self.sinAlpha1 = sinAlpha1
        self.cosAlpha1 = cosAlpha1
        sigma1 = atan2(start.sinU, start.cosU * cosAlpha1)
        self.sinAlpha = sinAlpha
        self.cosSquaredAlpha = cosSquaredAlpha
        self.series = series
        sigmaFirstGuess = distance / (Geodesic.semiMinorAxis * series.a)
    }

    /// The arc as Vincenty iterates it (``iterate(_:)``), each step with the C library's sines and cosines of σ and of
    /// 2σ₁ + σ.
    func arcByLibrary() -> Double {
        iterate(libraryStep(from:))
    }

    /// The fixed-point iteration from the first guess, with `step` taking σ to the next: the arc after the first step
    /// that changes it by less than ``Geodesic/convergenceThreshold``, or after ``Geodesic/maximumIterations`` steps.
    @inline(__always)
    func iterate(_ step: (Double) -> Double) -> Double {
        var sigma = sigmaFirstGuess
        for _ in 0..<Geodesic.maximumIterations {
            let next = step(sigma)
            let converged = abs(next - sigma) < Geodesic.convergenceThreshold
            sigma = next
            if converged { break }
        }
        return sigma
    }

    /// One step of the iteration from σ, with the C library's sines and cosines.
    func libraryStep(from sigma: Double) -> Double {
        let (sinSigma, cosSigma) = SineAndCosine.of(sigma)
        return step(sinSigma: sinSigma, cosSigma: cosSigma, cos2SigmaM: cos(2 * sigma1 + sigma))
    }

    /// One step of the iteration from the sine and cosine of σ and the cosine of 2σ₁ + σ.
    @inline(__always)
    func step(sinSigma: Double, cosSigma: Double, cos2SigmaM: Double) -> Double {
        sigmaFirstGuess + series.deltaSigma(sinSigma: sinSigma, cosSigma: cosSigma, cos2SigmaM: cos2SigmaM)
    }

    /// The end of the line after the arc σ (the C library's sines and cosines of σ and 2σ₁ + σ); the longitude in
    /// [−180, 180].
    func end(atArc sigma: Double) -> (latitude: Double, longitude: Double) {
        let start = origin.reduced
        let f = Geodesic.flattening
        let (sinSigma, cosSigma) = SineAndCosine.of(sigma)
        let cos2SigmaM = cos(2 * sigma1 + sigma)
        let tmp = start.sinU * sinSigma - start.cosU * cosSigma * cosAlpha1
        let latitude2 = atan2(
            start.sinU * cosSigma + start.cosU * sinSigma * cosAlpha1,
            (1 - f) * (sinAlpha * sinAlpha + tmp * tmp).squareRoot()
        )
        let lambda = atan2(sinSigma * sinAlpha1, start.cosU * cosSigma - start.sinU * sinSigma * cosAlpha1)
        let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
        let longitudeDifference =
            lambda - (1 - c) * f * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        // The remainder of a longitude already within ±180° is the longitude itself (the nearest multiple of 360° is
        // 0, ties going to the even 0): the library call only outside.
        let longitude2 = origin.longitude + longitudeDifference / Geodesic.radiansPerDegree
        let wrapped = abs(longitude2) <= 180 ? longitude2 : longitude2.remainder(dividingBy: 360)
        return (latitude2 / Geodesic.radiansPerDegree, wrapped)
    }
}
