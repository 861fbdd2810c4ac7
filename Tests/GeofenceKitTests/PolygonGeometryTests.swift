import Testing

@testable import GeofenceKit

@Suite struct PolygonGeometryTests {
    /// A ring from (longitude, latitude) pairs, the GeoJSON order.
    static func ring(_ points: [(Double, Double)], closed: Bool = false) -> [Coordinate] {
        var ring = points.map { Coordinate(unchecked: $0.1, $0.0) }
        if closed, let first = ring.first { ring.append(first) }
        return ring
    }

    static let square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    /// A U open to the north: the notch x ∈ (4, 6), y > 2 is outside.
    static let letterU = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (6.0, 10.0), (6.0, 2.0), (4.0, 2.0), (4.0, 10.0), (0.0, 10.0)]
    static let hole = [(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)]

    static func contains(_ polygon: PolygonGeometry, _ longitude: Double, _ latitude: Double) -> Bool {
        polygon.contains(latitude: latitude, longitude: longitude)
    }

    @Test(arguments: [false, true])
    func squareContainsInteriorAndRejectsExterior(closed: Bool) {
        let polygon = PolygonGeometry(polygons: [[Self.ring(Self.square, closed: closed)]])
        #expect(Self.contains(polygon, 5, 5))
        #expect(Self.contains(polygon, 0.001, 9.999))
        #expect(!Self.contains(polygon, 11, 5))
        #expect(!Self.contains(polygon, 5, -0.001))
        #expect(!Self.contains(polygon, -5, 5))
    }

    @Test(arguments: [(0.0, 5.0), (10.0, 5.0), (5.0, 0.0), (5.0, 10.0), (0.0, 0.0), (10.0, 10.0), (10.0, 0.0), (0.0, 10.0)])
    func pointsOnEdgesAndVerticesAreInside(longitude: Double, latitude: Double) {
        let polygon = PolygonGeometry(polygons: [[Self.ring(Self.square)]])
        #expect(Self.contains(polygon, longitude, latitude))
    }

    @Test func pointsOnASlantedEdgeAreInside() {
        let triangle = PolygonGeometry(polygons: [[Self.ring([(0, 0), (3, 1), (1, 3)])]])
        for t in [0.1, 0.37, 0.5, 0.9] {
            #expect(Self.contains(triangle, 3 * t, 1 * t), "edge (0,0)-(3,1) at \(t)")
            #expect(Self.contains(triangle, 3 + (1 - 3) * t, 1 + (3 - 1) * t), "edge (3,1)-(1,3) at \(t)")
        }
    }

    @Test(arguments: [(-1e-7, 5.0), (10.000_000_1, 5.0), (5.0, -1e-7), (5.0, 10.000_000_1), (-1e-7, -1e-7)])
    func pointsJustOutsideAreOutside(longitude: Double, latitude: Double) {
        let polygon = PolygonGeometry(polygons: [[Self.ring(Self.square)]])
        #expect(!Self.contains(polygon, longitude, latitude))
    }

    @Test func concavePolygonExcludesItsNotch() {
        let polygon = PolygonGeometry(polygons: [[Self.ring(Self.letterU)]])
        #expect(!Self.contains(polygon, 5, 5))
        #expect(!Self.contains(polygon, 5, 9.99))
        #expect(Self.contains(polygon, 5, 1))
        #expect(Self.contains(polygon, 2, 8))
        #expect(Self.contains(polygon, 8, 8))
        #expect(Self.contains(polygon, 5, 2))  // on the notch's floor
        #expect(Self.contains(polygon, 4, 7))  // on the notch's wall
        #expect(!Self.contains(polygon, 4.000_001, 7))
    }

    @Test func pointInAHoleIsOutsideButTheHoleEdgeIsInside() {
        let polygon = PolygonGeometry(polygons: [[Self.ring(Self.square), Self.ring(Self.hole, closed: true)]])
        #expect(!Self.contains(polygon, 5, 5))
        #expect(Self.contains(polygon, 2, 2))
        #expect(Self.contains(polygon, 4, 5))
        #expect(Self.contains(polygon, 6, 6))
        #expect(!Self.contains(polygon, 4.000_001, 5))
        #expect(Self.contains(polygon, 3.999_999, 5))
    }

    @Test func islandInsideAHoleIsInside() {
        let island = [(4.5, 4.5), (5.5, 4.5), (5.5, 5.5), (4.5, 5.5)]
        let polygon = PolygonGeometry(polygons: [[Self.ring(Self.square), Self.ring(Self.hole), Self.ring(island)]])
        #expect(Self.contains(polygon, 5, 5))
        #expect(!Self.contains(polygon, 4.2, 5))
    }

    @Test func multipolygonIsTheUnionOfItsPolygons() {
        let east = [(20.0, 0.0), (30.0, 0.0), (30.0, 10.0), (20.0, 10.0)]
        let overlapping = [(5.0, 5.0), (15.0, 5.0), (15.0, 15.0), (5.0, 15.0)]
        let polygon = PolygonGeometry(polygons: [
            [Self.ring(Self.square)], [Self.ring(east)], [Self.ring(overlapping)],
        ])
        #expect(Self.contains(polygon, 2, 2))
        #expect(Self.contains(polygon, 25, 5))
        #expect(Self.contains(polygon, 7, 7))  // in two overlapping polygons: still inside
        #expect(Self.contains(polygon, 12, 12))
        #expect(!Self.contains(polygon, 17, 5))  // between the parts
        #expect(Self.contains(polygon, 20, 5))  // on the second polygon's edge
    }

    @Test func holeOfOnePolygonDoesNotCutAnother() {
        let patch = [(4.5, 4.5), (5.5, 4.5), (5.5, 5.5), (4.5, 5.5)]
        let polygon = PolygonGeometry(polygons: [[Self.ring(Self.square), Self.ring(Self.hole)], [Self.ring(patch)]])
        #expect(Self.contains(polygon, 5, 5))
        #expect(!Self.contains(polygon, 4.2, 5))
    }

    @Test func boundingBoxRejectsFarAndInvalidPoints() {
        let polygon = PolygonGeometry(polygons: [[Self.ring(Self.square)]])
        #expect(!Self.contains(polygon, 50, 50))
        #expect(!Self.contains(polygon, -179, -89))
        #expect(!Self.contains(polygon, .nan, 5))
        #expect(!Self.contains(polygon, 5, .nan))
    }

    @Test func emptyGeometryContainsNothing() {
        #expect(!Self.contains(PolygonGeometry(polygons: []), 0, 0))
        #expect(!Self.contains(PolygonGeometry(polygons: [[]]), 0, 0))
        #expect(!Self.contains(PolygonGeometry(polygons: [[[]]]), 0, 0))
    }

    @Test func realWorldPolygonNearTheAntimeridianWorks() {
        // A small fence on the Fiji side of the antimeridian, edges at 179.9 and 180.
        let fence = PolygonGeometry(polygons: [[Self.ring([(179.9, -17.0), (180.0, -17.0), (180.0, -16.9), (179.9, -16.9)])]])
        #expect(Self.contains(fence, 179.95, -16.95))
        #expect(Self.contains(fence, 180, -16.95))
        #expect(!Self.contains(fence, -179.95, -16.95))
    }

    @Test func keepsTheGeometryItWasGiven() {
        let rings = [Self.ring(Self.square, closed: true)]
        #expect(PolygonGeometry(polygons: [rings]).polygons == [rings])
    }
}
