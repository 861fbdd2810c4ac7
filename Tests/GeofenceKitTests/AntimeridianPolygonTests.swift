import Foundation
import Testing

@testable import GeofenceKit
import GeofenceFormats

/// Polygons that cross the antimeridian are split there, rings around a pole are closed over it, and the rings
/// whose meaning is ambiguous are refused, naming the feature and the ring.
@Suite(.serialized) struct AntimeridianPolygonTests {
    static func decode(_ rings: String, type: String = "Polygon") throws -> (PolygonGeometry, [InputError]) {
        let text = """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"zone",\
            "geometry":{"type":"\(type)","coordinates":\(rings)}}]}
            """
        var warnings: [InputError] = []
        let regions = try GeoJSONRegionDecoder.decode(Array(text.utf8), warnings: &warnings)
        guard case .polygon(let polygon) = regions[0].geometry else { throw InputError("not a polygon") }
        return (polygon, warnings)
    }

    static func refusal(_ rings: String) -> String? {
        do {
            _ = try decode(rings)
            return nil
        } catch {
            return (error as? InputError)?.description ?? "\(error)"
        }
    }

    @Test func aBoxAcrossTheAntimeridianIsTheTwentyDegreesAcrossIt() throws {
        let (box, warnings) = try Self.decode("[[[170,-10],[-170,-10],[-170,10],[170,10],[170,-10]]]")
        for (latitude, longitude) in [(0.0, 175.0), (0, -175), (0, 180), (0, -180), (9.9, 179.99), (-9.9, -170.01)] {
            #expect(box.contains(latitude: latitude, longitude: longitude), "(\(latitude), \(longitude))")
        }
        for (latitude, longitude) in [(0.0, 0.0), (0, 169.9), (0, -169.9), (10.1, 180), (0, 90)] {
            #expect(!box.contains(latitude: latitude, longitude: longitude), "(\(latitude), \(longitude))")
        }
        let note = warnings.first { $0.description.contains("antimeridian") }?.description ?? "none"
        #expect(note.contains("features[0].geometry.coordinates[0]"), "\(note)")
        #expect(note.contains("position 0 to 1 spans 340°"), "\(note)")
        #expect(note.contains("split at ±180°"), "\(note)")
    }

    @Test func aHoleAcrossTheAntimeridianStaysAHole() throws {
        let (polygon, _) = try Self.decode(
            "[[[170,-10],[-170,-10],[-170,10],[170,10]],[[178,-1],[178,1],[-178,1],[-178,-1]]]")
        #expect(!polygon.contains(latitude: 0, longitude: 180))
        #expect(!polygon.contains(latitude: 0, longitude: -179))
        #expect(!polygon.contains(latitude: 0, longitude: 179))
        #expect(polygon.contains(latitude: 0, longitude: 176))
        #expect(polygon.contains(latitude: 5, longitude: -179))
    }

    @Test func distancesToTheBoundaryRunAcrossTheAntimeridian() throws {
        let (box, _) = try Self.decode("[[[170,-10],[-170,-10],[-170,10],[170,10]]]")
        // 0.01° west of the eastern edge at −170°: about 1.1 km, not 340° of longitude away.
        let distance = box.geodesicBoundaryDistance(latitude: 0, longitude: -170.01)
        let expected = Geodesic.distance(latitude1: 0, longitude1: -170.01, latitude2: 0, longitude2: -170)
        #expect(abs(distance - expected) < 1e-3)
        let toTheTop = Geodesic.distance(latitude1: 0, longitude1: 179.99, latitude2: 10, longitude2: 179.99)
        #expect(abs(box.boundaryDistance(latitude: 0, longitude: 179.99) - toTheTop) < 0.01 * toTheTop)
        // Half the box's smaller side: 10° of latitude, not half of 340° of longitude.
        #expect(abs(box.halfExtent - 1_105_000) < 10_000)
    }

    @Test func aRingAroundTheNorthPoleEnclosesIt() throws {
        let (cap, warnings) = try Self.decode("[[[0,80],[90,80],[180,80],[-90,80],[0,80]]]")
        for (latitude, longitude) in [(90.0, 0.0), (89.9, 123.0), (85, -45), (80.5, 179.9), (80.5, -179.9)] {
            #expect(cap.contains(latitude: latitude, longitude: longitude), "(\(latitude), \(longitude))")
        }
        for (latitude, longitude) in [(79.0, 0.0), (0, 0), (-89, 10), (79.9, -135)] {
            #expect(!cap.contains(latitude: latitude, longitude: longitude), "(\(latitude), \(longitude))")
        }
        #expect(warnings.contains { $0.description.contains("winds once around the North Pole") })
        // Its positions share a latitude, one line of the longitude–latitude plane: still not a ring without area.
        #expect(!warnings.contains { $0.description.contains("has no area") }, "\(warnings)")
        // The boundary is the ring at 80°, not the pole or a cut: from the pole it is 10° of meridian away.
        let fromPole = cap.geodesicBoundaryDistance(latitude: 90, longitude: 0)
        let meridian = Geodesic.distance(latitude1: 90, longitude1: 0, latitude2: 80, longitude2: 0)
        #expect(abs(fromPole - meridian) < 1e-3)
        let nearCut = cap.geodesicBoundaryDistance(latitude: 85, longitude: 0)
        #expect(abs(nearCut - Geodesic.distance(latitude1: 85, longitude1: 0, latitude2: 80, longitude2: 0)) < 1e-3)
    }

    @Test func aRingAroundTheSouthPoleEnclosesIt() throws {
        let (cap, warnings) = try Self.decode("[[[0,-81],[-120,-81],[120,-81],[0,-81]]]")
        #expect(cap.contains(latitude: -90, longitude: 0))
        #expect(cap.contains(latitude: -85, longitude: 170))
        #expect(!cap.contains(latitude: -80, longitude: 170))
        #expect(warnings.contains { $0.description.contains("winds once around the South Pole") })
        #expect(!warnings.contains { $0.description.contains("has no area") }, "\(warnings)")
    }

    @Test func worldSpanningPolygonsAreTakenAsWritten() throws {
        let (world, warnings) = try Self.decode("[[[-180,-90],[180,-90],[180,90],[-180,90],[-180,-90]]]")
        #expect(world.contains(latitude: 0, longitude: 0))
        #expect(world.contains(latitude: 45, longitude: 179.5))
        #expect(warnings.isEmpty)
        let (band, _) = try Self.decode("[[[0,-10],[180,-10],[180,10],[0,10]]]")
        #expect(band.contains(latitude: 0, longitude: 90))
        #expect(!band.contains(latitude: 0, longitude: -90))
    }

    @Test(arguments: [
        ("[[[0,-10],[120,10],[-120,-10],[0,-10]]]", "features[0].geometry.coordinates[0]", "crosses the equator"),
        (
            "[[[0,70],[120,70],[-120,70],[0,70]],[[0,85],[120,85],[-120,85],[0,85]]]",
            "features[0].geometry.coordinates[1]", "hole that winds around a pole"
        ),
        (
            "[[[0,70],[120,70],[-120,70],[0,70],[120,71],[-120,71],[0,71],[0,70]]]",
            "features[0].geometry.coordinates[0]", "winds 2 times"
        ),
    ])
    func ambiguousRingsAreRefusedNamingTheFeatureAndRing(rings: String, path: String, reason: String) {
        let message = Self.refusal(rings)
        #expect(message?.contains(path) == true, "\(message ?? "accepted")")
        #expect(message?.contains(reason) == true, "\(message ?? "accepted")")
    }

    @Test func multiPolygonPartsAreSplitOneByOne() throws {
        let (zones, warnings) = try Self.decode(
            "[[[[170,0],[-170,0],[-170,5],[170,5]]],[[[10,0],[20,0],[20,5],[10,5]]]]", type: "MultiPolygon")
        #expect(zones.contains(latitude: 2, longitude: 179))
        #expect(zones.contains(latitude: 2, longitude: 15))
        #expect(!zones.contains(latitude: 2, longitude: 0))
        let notes = warnings.filter { $0.description.contains("antimeridian") }
        #expect(notes.count == 1)
        #expect(notes.first?.description.contains("coordinates[0][0]") == true)
    }
}
