import Testing
@testable import GeofenceKit

@Suite struct CoordinateTests {
    @Test(arguments: [(91.0, 0.0, "lat"), (-90.5, 0.0, "lat"), (0.0, 180.1, "lon"), (.nan, 0.0, "lat"), (0.0, .infinity, "lon")])
    func rejectsInvalidCoordinates(latitude: Double, longitude: Double, field: String) {
        #expect(throws: CoordinateError.self) { try Coordinate(latitude: latitude, longitude: longitude) }
        do {
            _ = try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            #expect(error.field == field)
        }
    }

    @Test func acceptsTheWholeRangeIncludingItsEdges() throws {
        for (lat, lon) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0), (25.033, 121.5654)] {
            let c = try Coordinate(latitude: lat, longitude: lon)
            #expect(c.latitude == lat && c.longitude == lon)
        }
    }
}
