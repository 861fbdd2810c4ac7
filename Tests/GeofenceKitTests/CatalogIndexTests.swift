import Testing
@testable import GeofenceKit

/// The catalog index against a plain scan of every region: nearest regions, containment, ties, tiny catalogs,
/// polygons, and places where a flat grid would break (±180°, the poles).
@Suite struct CatalogIndexTests {
    struct Circle { var latitude: Double; var longitude: Double; var radius: Double }

    /// `count` circles of 20–400 m spread over `spread` degrees around a centre (seeded).
    static func circles(_ count: Int, around latitude: Double, _ longitude: Double, spread: Double, seed: UInt64) -> [Circle] {
        var rng = SplitMix64(seed: seed, stream: 0, purpose: 99)
        return (0..<count).map { _ in
            var lon = longitude + (rng.unit() - 0.5) * spread
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            return Circle(
                latitude: min(89.9, max(-89.9, latitude + (rng.unit() - 0.5) * spread)), longitude: lon,
                radius: 20 + rng.unit() * 380)
        }
    }

    static func index(_ circles: [Circle]) -> CatalogIndex {
        CatalogIndex(circles.enumerated().map { (Int32($0), .circle(latitude: $1.latitude, longitude: $1.longitude, radius: $1.radius)) })
    }

    /// The reference: every region's geodesic boundary distance, sorted by (distance, number).
    static func scanNearest(_ circles: [Circle], _ latitude: Double, _ longitude: Double) -> [(Double, Int32)] {
        circles.enumerated()
            .map { (Geodesic.distance(latitude1: $1.latitude, longitude1: $1.longitude, latitude2: latitude, longitude2: longitude) - $1.radius, Int32($0)) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    @Test(arguments: [(25.03, 121.56, 0.2), (0.0, 179.99, 0.3), (89.5, 10.0, 1.0), (-33.9, 151.2, 20.0)])
    func nearestMatchesAScanOfEveryRegion(latitude: Double, longitude: Double, spread: Double) {
        let catalog = Self.circles(3_000, around: latitude, longitude, spread: spread, seed: 7)
        let index = Self.index(catalog)
        var result = CatalogIndex.NearestRegions()
        var rng = SplitMix64(seed: 3, stream: 1, purpose: 1)
        for _ in 0..<12 {
            var lon = longitude + (rng.unit() - 0.5) * spread * 1.2
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            let lat = min(89.95, max(-89.95, latitude + (rng.unit() - 0.5) * spread * 1.2))
            let scan = Self.scanNearest(catalog, lat, lon)
            for wanted in [1, 20, 100] {
                index.nearest(latitude: lat, longitude: lon, count: wanted, into: &result)
                #expect(result.regions == scan.prefix(wanted).map(\.1))
                #expect(result.distances == result.distances.sorted())
            }
            index.nearest(latitude: lat, longitude: lon, count: 20, within: 2_000, into: &result)
            #expect(result.regions == scan.filter { $0.0 <= 2_000 }.prefix(20).map(\.1))
        }
    }

    /// The Hilbert curve one level at a time, as it is usually written (the reference of the index's table).
    static func curvePosition(x: UInt64, y: UInt64) -> UInt64 {
        var x = x, y = y
        let last: UInt64 = (1 << 20) - 1
        var d: UInt64 = 0
        var s: UInt64 = 1 << 19
        while s > 0 {
            let rx: UInt64 = x & s != 0 ? 1 : 0
            let ry: UInt64 = y & s != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = last - x
                    y = last - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }

    @Test func theCurveKeyIsTheHilbertCurve() {
        var rng = SplitMix64(seed: 9, stream: 0, purpose: 1)
        let cell = 1.0 / Double((1 << 20) - 1)
        for i in 0..<20_000 {
            // Half the longitudes on the grid lines of the curve (whole steps of x), the others anywhere.
            let u = i % 2 == 0 ? rng.unit() : (Double(rng.next() % (1 << 20)) * cell)
            let v = rng.unit()
            let latitude = -90 + 180 * v, longitude = -180 + 360 * u
            let x = UInt64(min(max((longitude + 180) / 360, 0), 1) * Double((1 << 20) - 1))
            let y = UInt64(min(max((latitude + 90) / 180, 0), 1) * Double((1 << 20) - 1))
            #expect(CatalogIndex.curveKey(latitude: latitude, longitude: longitude) == Self.curvePosition(x: x, y: y))
        }
        #expect(CatalogIndex.curveKey(latitude: -90, longitude: -180) == 0)
    }

    @Test func theRadixSortOrdersAsSortDoes() {
        var rng = SplitMix64(seed: 8, stream: 0, purpose: 1)
        // Curve positions with many repeats, and the input order in the low 24 bits.
        var keys: [UInt64] = []
        for input in 0..<5_000 {
            let position: UInt64 = rng.next() % 300
            let low: UInt64 = rng.next() % 4
            keys.append(position << 30 | low << 24 | UInt64(input))
        }
        #expect(CatalogIndex.sortedByCurve(keys) == keys.sorted())
        #expect(CatalogIndex.sortedByCurve([]) == [])
    }

    @Test func containmentMatchesAScanOfEveryRegion() {
        // Dense enough that points are inside several regions; across the antimeridian.
        let catalog = Self.circles(5_000, around: 10, 180, spread: 0.1, seed: 11)
        let index = Self.index(catalog)
        var rng = SplitMix64(seed: 5, stream: 2, purpose: 1)
        var found: [Int32] = [], stack: [(level: Int32, box: Int32)] = []
        let geometries = catalog.map { CircleGeometry(center: Coordinate(unchecked: $0.latitude, $0.longitude), radius: $0.radius) }
        var insideSomewhere = 0
        for _ in 0..<150 {
            var lon = 180 + (rng.unit() - 0.5) * 0.1
            if lon > 180 { lon -= 360 }
            let lat = 10 + (rng.unit() - 0.5) * 0.1
            found.removeAll()
            index.regionsContaining(latitude: lat, longitude: lon, into: &found, stack: &stack)
            let expected = geometries.indices.filter { geometries[$0].contains(latitude: lat, longitude: lon) }.map(Int32.init)
            #expect(found == expected)
            insideSomewhere += found.isEmpty ? 0 : 1
        }
        #expect(insideSomewhere > 30)
    }

    @Test func pointsOnTheBoundaryAreInside() {
        let centre = Coordinate(unchecked: 48.85, 2.35)
        let edge = Geodesic.destination(latitude: centre.latitude, longitude: centre.longitude, bearing: 37, distance: 250)
        let exact = Geodesic.distance(latitude1: centre.latitude, longitude1: centre.longitude, latitude2: edge.latitude, longitude2: edge.longitude)
        let index = CatalogIndex([(0, .circle(latitude: centre.latitude, longitude: centre.longitude, radius: exact))])
        var found: [Int32] = [], stack: [(level: Int32, box: Int32)] = []
        index.regionsContaining(latitude: edge.latitude, longitude: edge.longitude, into: &found, stack: &stack)
        #expect(found == [0])
    }

    @Test func aCatalogOfOneRegion() {
        let index = CatalogIndex([(42, .circle(latitude: 25, longitude: 121, radius: 100))])
        var result = CatalogIndex.NearestRegions()
        index.nearest(latitude: -25, longitude: -59, count: 20, into: &result)  // the antipode
        #expect(result.regions == [42])
        index.nearest(latitude: 25, longitude: 121, count: 20, within: 50, into: &result)
        #expect(result.regions == [42])
        #expect(result.distances == [-100])
        index.nearest(latitude: 25.1, longitude: 121, count: 20, within: 5_000, into: &result)
        #expect(result.regions.isEmpty)
        var found: [Int32] = [], stack: [(level: Int32, box: Int32)] = []
        index.regionsContaining(latitude: 25, longitude: 121.0005, into: &found, stack: &stack)
        #expect(found == [42])
    }

    /// A circle of 1,000 km whose boundary lies 900 m from the point (along the equator), and twenty of 10 m whose
    /// boundaries lie 20–780 m from it: the twenty are the nearest. Ranked by its chord, a kilometre shorter than the
    /// geodesic at that distance, the large circle came first.
    @Test func aLargeCircleIsRankedByItsGeodesicDistance() throws {
        let longitude = 1_000_900 / Geodesic.semiMajorAxis / Geodesic.radiansPerDegree
        var shapes: [(region: Int32, shape: CatalogIndex.Shape)] = [
            (100, .circle(latitude: 0, longitude: longitude, radius: 1_000_000))
        ]
        for k in 0..<20 {
            shapes.append((Int32(k), .circle(latitude: Double(30 + 40 * k) / 110_574, longitude: 0, radius: 10)))
        }
        let index = CatalogIndex(shapes)
        var result = CatalogIndex.NearestRegions()
        index.nearest(latitude: 0, longitude: 0, count: 20, into: &result)
        #expect(result.regions == (0..<20).map { Int32($0) })
        index.nearest(latitude: 0, longitude: 0, count: 21, into: &result)
        #expect(result.regions.last == 100)
        #expect(abs(try #require(result.distances.last) - 900) < 0.01)
    }

    @Test func anEmptyCatalogFindsNothing() {
        let index = CatalogIndex([(region: Int32, shape: CatalogIndex.Shape)]())
        var result = CatalogIndex.NearestRegions()
        index.nearest(latitude: 0, longitude: 0, count: 5, into: &result)
        #expect(result.regions.isEmpty)
    }

    @Test func tiesGoToTheLowerRegionNumber() {
        // Five identical circles: the three lowest numbers win, whatever order they came in.
        let shapes: [(region: Int32, shape: CatalogIndex.Shape)] = [9, 4, 7, 1, 5].map { ($0, .circle(latitude: 1, longitude: 1, radius: 50)) }
        var result = CatalogIndex.NearestRegions()
        CatalogIndex(shapes).nearest(latitude: 1.01, longitude: 1, count: 3, into: &result)
        #expect(result.regions == [1, 4, 5])
    }

    @Test func everyRegionIsFoundWhenMoreAreWantedThanThereAre() {
        // Thousands of boxes wait in the walk's queue at once: it grows past its first size.
        let catalog = Self.circles(3_000, around: -33.9, 151.2, spread: 2, seed: 13)
        let index = Self.index(catalog)
        var result = CatalogIndex.NearestRegions()
        // The index's own measure for every region: up to ``CatalogIndex/chordLimit`` the straight-line distance
        // minus the radius rounded up to a `Float`, the geodesic less the exact radius beyond (where the two
        // distances differ by more than some of the regions' gaps).
        let point = EarthCentredPoint(latitude: -33.9, longitude: 151.2)
        let scan = catalog.enumerated().map { k, circle in
            let float = Float(circle.radius)
            let radius = Double(float) >= circle.radius ? float : float.nextUp
            let centre = EarthCentredPoint(latitude: circle.latitude, longitude: circle.longitude)
            let chord = centre.distance(to: point)
            let distance =
                chord <= CatalogIndex.chordLimit
                ? chord - Double(radius)
                : Geodesic.distance(
                    latitude1: circle.latitude, longitude1: circle.longitude, latitude2: -33.9, longitude2: 151.2)
                    - circle.radius
            return (distance: distance, region: Int32(k))
        }.sorted { ($0.distance, $0.region) < ($1.distance, $1.region) }
        index.nearest(latitude: -33.9, longitude: 151.2, count: 5_000, into: &result)
        #expect(result.regions == scan.map(\.region))
        #expect(result.distances == scan.map(\.distance))
        index.nearest(
            latitude: -33.9, longitude: 151.2, count: 5_000, admitting: CatalogAdmission(maximumRadius: 200),
            into: &result)
        #expect(result.regions == scan.filter { catalog[Int($0.region)].radius <= 200 }.map(\.region))
        // The call's earlier form, a maximum radius alone, answers the same.
        var earlierForm = CatalogIndex.NearestRegions()
        index.nearest(latitude: -33.9, longitude: 151.2, count: 5_000, maximumRadius: 200, into: &earlierForm)
        #expect(earlierForm.regions == result.regions)
        #expect(earlierForm.distances == result.distances)
    }

    @Test func tiesAcrossLeavesGoToTheLowerRegionNumbers() {
        // 200 identical circles, numbered out of order, fill several leaves: the 37 lowest numbers win.
        var rng = SplitMix64(seed: 2, stream: 0, purpose: 1)
        let numbers = (0..<200).map { Int32($0) }.shuffled(using: &rng)
        let shapes: [(region: Int32, shape: CatalogIndex.Shape)] = numbers.map { ($0, .circle(latitude: 1, longitude: 1, radius: 50)) }
        var result = CatalogIndex.NearestRegions()
        CatalogIndex(shapes).nearest(latitude: 1.01, longitude: 1, count: 37, into: &result)
        #expect(result.regions == (0..<37).map { Int32($0) })
    }

    @Test func polygonsAreFoundByTheirBoundary() throws {
        // A 0.02° square whose nearest edge is 0.005° north of the probe, and circles further away.
        let ring = [(0.0, 0.0), (0.0, 0.02), (0.02, 0.02), (0.02, 0.0), (0.0, 0.0)].map { Coordinate(unchecked: $0.0, $0.1) }
        let square = PolygonGeometry(polygons: [[ring]])
        let shapes: [(region: Int32, shape: CatalogIndex.Shape)] = [
            (0, .circle(latitude: -0.02, longitude: 0.01, radius: 100)),
            (1, .polygon(square)),
            (2, .circle(latitude: -0.005, longitude: 0.03, radius: 100)),
        ]
        let index = CatalogIndex(shapes)
        var result = CatalogIndex.NearestRegions()
        index.nearest(latitude: -0.005, longitude: 0.01, count: 1, into: &result)
        #expect(result.regions == [1])
        #expect(abs(result.distances[0] - 553) < 5)
        index.nearest(latitude: 0.01, longitude: 0.01, count: 3, into: &result)
        #expect(result.regions.first == 1)
        #expect(result.distances[0] < 0)
        var found: [Int32] = [], stack: [(level: Int32, box: Int32)] = []
        index.regionsContaining(latitude: 0.01, longitude: 0.01, into: &found, stack: &stack)
        #expect(found == [1])
        found.removeAll()
        index.regionsContaining(latitude: 0.0, longitude: 0.02, into: &found, stack: &stack)  // a vertex
        #expect(found == [1])
    }

    @Test func theIndexStaysSmallPerCircle() {
        let index = Self.index(Self.circles(100_000, around: 25, 121, spread: 1, seed: 1))
        #expect(index.count == 100_000)
        #expect(index.memoryBytes / index.count <= 60)  // 58: a 32-byte record, the exact centre and radius, boxes
    }
}
