import Foundation
import Testing

@testable import GeofenceKit

/// ``SineAndCosine/bounded(_:)`` and the moves that lean on it (``GeoMotion/moves(from:_:scale:distances:bearings:count:latitudes:longitudes:stride:)``):
/// generated centres must stay bit for bit those of the C library's sine and cosine (``SineAndCosine/of(_:)``).
@Suite struct BoundedMoveTests {
    /// Bearings as generated regions draw them, and the multiples of π/4 (where the quadrant changes) on both sides.
    static func bearings(count: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        let edges = (0...16).flatMap { k -> [Double] in
            let angle = Double(k) * .pi / 4
            return [angle.nextDown, angle, angle.nextUp].filter { abs($0) <= 2 * .pi }
        }
        return edges + edges.map { -$0 } + (0..<count).map { _ in rng.unit() * 2 * .pi }
    }

    /// The library's pair, which the bounded moves fall back on, is its `sin` and `cos` bit for bit.
    @Test func theLibrarysPairIsItsSineAndCosineBitForBit() {
        for angle in Self.bearings(count: 4_096, seed: 15) + [1e6, -1e-300] {
            let pair = SineAndCosine.of(angle)
            #expect(pair.sin.bitPattern == sin(angle).bitPattern, "sin \(angle)")
            #expect(pair.cos.bitPattern == cos(angle).bitPattern, "cos \(angle)")
        }
    }

    @Test func boundedSineAndCosineStayWellWithinTheirBoundOfTheLibrarys() {
        var largest = 0.0
        for angle in Self.bearings(count: 1_000_000, seed: 15) {
            let bounded = SineAndCosine.bounded(angle)
            largest = max(largest, abs(bounded.sin - sin(angle)), abs(bounded.cos - cos(angle)))
        }
        // The proof gives 5e-16; 100 million bearings measured 2.2e-16.
        #expect(largest <= SineAndCosine.boundedError / 2)
    }

    /// Starts on both hemispheres, at the plane's latitude limit and past it, beside the antimeridian and near the
    /// poles; distances from 0 to past the 19 km the bounded move takes; the library's path for each.
    @Test func movesGiveTheLibraryPathsPositionsBitForBit() {
        var rng = SplitMix64(seed: 12)
        let latitudes: [Double] = [0, 37.7749, -33.86, 79.999, 80, -80, 80.5, 89.9999, -89.9999]
        let longitudes: [Double] = [0, -122.4194, 179.9999, -179.9999, 180, -180]
        var decided = 0
        var undecided = 0
        for round in 0..<4_000 {
            let latitude = round < 200 ? latitudes[round % latitudes.count] : (rng.unit() - 0.5) * 170
            let longitude = round < 200 ? longitudes[round / latitudes.count % longitudes.count] : (rng.unit() - 0.5) * 360
            let scale = LocalScale(latitude: latitude)
            let count = 64
            let all = Self.bearings(count: count, seed: UInt64(round))
            // The quadrants' edges for some starts, drawn bearings for the others.
            let bearings = Array(round % 8 == 0 ? all.prefix(count) : all.suffix(count))
            let distances = (0..<count).map { k -> Double in
                switch k {
                case 0: 0
                case 1: 1e-200
                case 2: 19_000
                case 3: 19_000.000_1
                case 4: 25_000
                default: 3_000 * rng.unit().squareRoot()
                }
            }
            var centreLatitudes = [Double](repeating: .nan, count: count)
            var centreLongitudes = centreLatitudes
            GeoMotion.moves(
                from: latitude, longitude, scale: scale, distances: distances, bearings: bearings, count: count,
                latitudes: &centreLatitudes, longitudes: &centreLongitudes)
            for k in 0..<count {
                let direction = (sin: sin(bearings[k]), cos: cos(bearings[k]))
                let expected = GeoMotion.move(
                    latitude, longitude, north: distances[k] * direction.cos, east: distances[k] * direction.sin,
                    scale: scale)
                #expect(centreLatitudes[k].bitPattern == expected.latitude.bitPattern, "\(latitude) \(longitude) \(k)")
                #expect(centreLongitudes[k].bitPattern == expected.longitude.bitPattern, "\(latitude) \(longitude) \(k)")
                let bounded = GeoMotion.boundedMove(
                    latitude, longitude, distance: distances[k], bearing: bearings[k],
                    direction: SineAndCosine.bounded(bearings[k]), scale: scale)
                if bounded == nil { undecided += 1 } else { decided += 1 }
            }
        }
        // Both paths were taken: the bounded one for nearly every move, the library's for the rest.
        #expect(undecided > 1_000)
        #expect(decided > 4 * undecided)
    }

    /// Results written `stride` doubles apart (generated regions write their circles' centres in place) are those
    /// written to arrays of their own, and the doubles between them are left as they were.
    @Test func stridedMovesWriteTheSamePositionsAndNothingBetween() {
        let latitude = 48.85, longitude = 2.35
        let scale = LocalScale(latitude: latitude)
        let bearings = Self.bearings(count: 200, seed: 21)
        var rng = SplitMix64(seed: 22)
        let distances = bearings.map { _ in 3_000 * rng.unit().squareRoot() }
        let count = bearings.count
        var latitudes = [Double](repeating: .nan, count: count)
        var longitudes = latitudes
        GeoMotion.moves(
            from: latitude, longitude, scale: scale, distances: distances, bearings: bearings, count: count,
            latitudes: &latitudes, longitudes: &longitudes)
        // (latitude, longitude, untouched) per move.
        var interleaved = [Double](repeating: -1, count: 3 * count)
        interleaved.withUnsafeMutableBufferPointer { buffer in
            GeoMotion.moves(
                from: latitude, longitude, scale: scale, distances: distances, bearings: bearings, count: count,
                latitudes: buffer.baseAddress!, longitudes: buffer.baseAddress! + 1, stride: 3)
        }
        for k in 0..<count {
            #expect(interleaved[3 * k].bitPattern == latitudes[k].bitPattern)
            #expect(interleaved[3 * k + 1].bitPattern == longitudes[k].bitPattern)
            #expect(interleaved[3 * k + 2] == -1)
        }
    }
}
