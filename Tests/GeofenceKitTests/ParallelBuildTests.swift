import Testing
@testable import GeofenceKit

/// The catalog's build on every core gives what a single pass gives: the same arrays, the same index.
@Suite struct ParallelBuildTests {
    @Test(arguments: [0, 1, 100, 16_383, 16_384, 100_003])
    func aParallelFillIsTheSerialMap(count: Int) {
        let filled = ParallelFill.array(count: count) { $0 &* 2_654_435_761 ^ 17 }
        #expect(filled == (0..<count).map { $0 &* 2_654_435_761 ^ 17 })
        let smallParts = ParallelFill.array(count: count, smallestPart: 3) { Double($0) / 7 }
        #expect(smallParts == (0..<count).map { Double($0) / 7 })
    }

    @Test func skippingDrawsLandsWhereDrawingThemDoes() {
        var drawn = SplitMix64(seed: 11, stream: 4, purpose: .generatedCatalog)
        var skipped = drawn
        for _ in 0..<1_234 { _ = drawn.next() }
        skipped.skip(1_234)
        #expect((0..<10).map { _ in drawn.next() } == (0..<10).map { _ in skipped.next() })
        var none = drawn
        none.skip(0)
        #expect(none.next() == drawn.next())
    }

    /// Enough circles for several parts per core; the index of `init(circles:)` is the one `init(_:)` builds.
    @Test func anIndexOfCirclesIsTheIndexOfTheSameShapes() {
        var rng = SplitMix64(seed: 5, stream: 0, purpose: 98)
        let circles = (0..<70_000).map { _ in
            CatalogIndex.Circle(
                latitude: 25 + (rng.unit() - 0.5) * 0.6, longitude: 121.5 + (rng.unit() - 0.5) * 0.6,
                radius: 25 + rng.unit() * 125)
        }
        let parallel = CatalogIndex(circles: circles)
        let serial = CatalogIndex(circles.enumerated().map {
            (Int32($0), .circle(latitude: $1.latitude, longitude: $1.longitude, radius: $1.radius))
        })
        #expect(parallel.count == serial.count)
        #expect(parallel.records.map(\.region) == serial.records.map(\.region))
        #expect(parallel.records.map(\.x) == serial.records.map(\.x))
        #expect(parallel.records.map(\.radius) == serial.records.map(\.radius))
        #expect(parallel.centres.map(\.latitude) == serial.centres.map(\.latitude))
        #expect(parallel.levels.map { $0.map(\.maxX) } == serial.levels.map { $0.map(\.maxX) })
        // The tree order follows the curve, and ties keep input order.
        let keys = parallel.centres.map { CatalogIndex.curveKey(latitude: $0.latitude, longitude: $0.longitude) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        // Leaves box their records.
        for (leaf, box) in parallel.levels[0].enumerated() {
            for record in parallel.records[leaf * CatalogIndex.leafSize..<min((leaf + 1) * CatalogIndex.leafSize, parallel.count)] {
                #expect(Double(box.minX) <= record.x && record.x <= Double(box.maxX))
                #expect(abs(record.radius) <= box.maxRadius)
            }
        }
        var renumbered = parallel
        renumbered.numberRegionsInTreeOrder()
        #expect(renumbered.records.map(\.region) == (0..<Int32(circles.count)).map { $0 })
    }
}
