import Testing
@testable import GeofenceKit

/// The nearest-regions walk prunes and orders boxes by ``CatalogIndex/Box/lowerBound(from:)``, computed in `Float`:
/// it must never exceed the exact boundary distance bound (the straight distance to the box, in `Double`, minus the
/// largest radius under it), for boxes of every level and points near them, far away and inside them.
@Suite struct BoxLowerBoundTests {
    @Test(arguments: [(25.03, 121.56, 0.3), (0.0, 179.99, 2.0), (89.5, 10.0, 1.0), (-33.9, 151.2, 40.0)])
    func theFloatBoundIsALowerBoundOfTheExactOne(latitude: Double, longitude: Double, spread: Double) {
        let index = CatalogIndexTests.index(
            CatalogIndexTests.circles(4_000, around: latitude, longitude, spread: spread, seed: 17))
        var rng = SplitMix64(seed: 5, stream: 3, purpose: 1)
        var tested = 0, tightest = Double.infinity
        for _ in 0..<300 {
            // Near the catalog, where pruning decides, and anywhere on the Earth.
            let near = rng.unit() < 0.8
            let lat = near ? min(90, max(-90, latitude + (rng.unit() - 0.5) * spread * 1.5)) : rng.unit() * 180 - 90
            let lon = near ? longitude + (rng.unit() - 0.5) * spread * 1.5 : rng.unit() * 360 - 180
            let point = EarthCentredPoint(latitude: lat, longitude: lon)
            let lanes = SIMD4(Float(point.x), Float(point.y), Float(point.z), 0)
            for level in index.levels {
                for box in level {
                    let exact = box.distance(to: point) - Double(box.maxRadius)
                    let bound = box.lowerBound(from: lanes)
                    #expect(bound <= exact, "box \(box) at (\(lat), \(lon)): \(bound) > \(exact)")
                    tightest = min(tightest, exact - bound)
                    tested += 1
                }
            }
        }
        #expect(tested > 30_000)
        // Not loose either: within a few metres where the box is near.
        #expect(tightest < 3)
    }
}
