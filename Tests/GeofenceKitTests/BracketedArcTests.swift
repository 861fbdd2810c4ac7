import Foundation
import Testing

@testable import GeofenceKit

/// Vincenty's arc iterated with bracketed sines and cosines (``DirectLine/arc()``) is the arc of the library's
/// iteration (``DirectLine/arcByLibrary()``) bit for bit, and so is every destination: a generated catalog places
/// its circles with it and must stay the catalog of its seed.
@Suite struct BracketedArcTests {
    /// Starts at every latitude and longitude, bearings of both signs past a turn, distances from a metre to past the
    /// 190 km the bracket takes; a third of them as a generated catalog draws its centres (20–100 km around one
    /// start).
    @Test func theArcIsTheLibraryIterationsBitForBit() {
        var rng = SplitMix64(seed: 2_027)
        let catalogStart = Geodesic.DirectStart(latitude: 25.0330, longitude: 121.5654)
        var differing = 0
        var lines = 0
        for round in 0..<150_000 {
            let start =
                round % 3 == 0
                ? catalogStart
                : Geodesic.DirectStart(latitude: (rng.unit() - 0.5) * 180, longitude: (rng.unit() - 0.5) * 360)
            let bearing = round % 3 == 0 ? rng.unit() * 360 : (rng.unit() - 0.5) * 1_080
            let distance =
                switch round % 6 {
                case 0, 3: 20_000 + 80_000 * rng.unit().squareRoot()
                case 1: 250_000 * rng.unit()
                case 2: 1_000 * rng.unit()
                case 4: 185_000 + 10_000 * rng.unit()
                default: 20_000_000 * rng.unit()
                }
            let line = DirectLine(from: start, bearing: bearing, distance: distance)
            lines += 1
            if line.arc().bitPattern != line.arcByLibrary().bitPattern { differing += 1 }
        }
        #expect(lines == 150_000)
        #expect(differing == 0)
    }

    /// A step the bracket decides is the library's step, from arcs near each line's first guess (where the steps
    /// are); and the bracket decides most of them.
    @Test func aDecidedStepIsTheLibrarysStep() {
        var rng = SplitMix64(seed: 7)
        var decided = 0
        var undecided = 0
        var differing = 0
        for _ in 0..<200_000 {
            let start = Geodesic.DirectStart(latitude: (rng.unit() - 0.5) * 170, longitude: (rng.unit() - 0.5) * 360)
            let line = DirectLine(from: start, bearing: rng.unit() * 360, distance: 1 + 190_000 * rng.unit())
            guard line.sigmaFirstGuess <= 0.03 else { continue }
            let sigma = line.sigmaFirstGuess * (1 + (rng.unit() - 0.5) * 0.004)
            guard let step = line.bracketedStep(from: sigma, twice: SineAndCosine.bounded(2 * line.sigma1)) else {
                undecided += 1
                continue
            }
            decided += 1
            if step.bitPattern != line.libraryStep(from: sigma).bitPattern { differing += 1 }
        }
        #expect(differing == 0)
        #expect(decided > 9 * undecided)
    }

    /// The same ends through the public call, which takes the bracketed arc, and through the library's arc.
    @Test func destinationsAreTheLibraryIterationsBitForBit() {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<20_000 {
            let start = Geodesic.DirectStart(latitude: (rng.unit() - 0.5) * 170, longitude: (rng.unit() - 0.5) * 360)
            let bearing = rng.unit() * 360, distance = 150_000 * rng.unit()
            let end = Geodesic.destination(from: start, bearing: bearing, distance: distance)
            let line = DirectLine(from: start, bearing: bearing, distance: distance)
            let expected = line.end(atArc: line.arcByLibrary())
            #expect(end.latitude.bitPattern == expected.latitude.bitPattern)
            #expect(end.longitude.bitPattern == expected.longitude.bitPattern)
        }
    }

    /// The bounds the bracket takes for the sine and cosine of a short arc (``DirectLine/shortArcSineAndCosine(_:)``):
    /// the sine within 1.05 × 2⁻⁵³ × σ of the true one and the cosine within 2.4e-16, so within 3.5e-16 × σ and 3.5e-16
    /// of the library's (an ulp from the true ones).
    @Test func theShortArcSineAndCosineAreWithinTheirBoundsOfTheLibrarys() {
        var rng = SplitMix64(seed: 51)
        var sine = 0.0
        var cosine = 0.0
        for k in 0..<1_000_000 {
            let sigma = k < 1_000 ? 0.0302 * Double(k + 1) / 1_000 : 0.0302 * rng.unit() + 1e-300
            let pair = DirectLine.shortArcSineAndCosine(sigma)
            sine = max(sine, abs(pair.sin - sin(sigma)) / sigma)
            cosine = max(cosine, abs(pair.cos - cos(sigma)))
        }
        #expect(sine <= 3.5e-16)
        #expect(cosine <= 3.5e-16)
    }
}
