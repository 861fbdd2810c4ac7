import Testing

@testable import GeofenceFormats
import GeofenceKit

@Suite struct GeoJSONRegionDecoderTests {
    /// A FeatureCollection around the given features (JSON text), one per line starting at line 2.
    private func collection(_ features: String...) -> [UInt8] {
        Array(("{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}").utf8)
    }

    private func circle(id: String = "\"c\"", center: String = "[121.5, 25.0]", properties: String = "\"radius\": 100")
        -> String
    {
        #"{"type": "Feature", "id": \#(id), "geometry": {"type": "Point", "coordinates": \#(center)}, "properties": {\#(properties)}}"#
    }

    private func polygon(id: String = "\"p\"", rings: String, type: String = "Polygon") -> String {
        #"{"type": "Feature", "id": \#(id), "geometry": {"type": "\#(type)", "coordinates": \#(rings)}, "properties": null}"#
    }

    private func decodeError(_ bytes: [UInt8]) -> InputError? {
        do {
            _ = try GeoJSONRegionDecoder.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesCirclesWithTheirProperties() throws {
        let regions = try GeoJSONRegionDecoder.decode(
            collection(
                circle(
                    id: "\"taipei-main\"",
                    properties: #""radius": 250.5, "devices": ["bus-17", "bus-18"], "notifyOnEntry": false, "notifyOnDwell": true, "loiteringDelay": 30, "bufferDistance": 150, "confirmationTime": 15, "name": "ignored", "style": {"color": "red"}"#
                ),
                circle(id: "null", properties: #""id": "from-properties", "radius": 10, "notifyOnExit": null"#)))
        #expect(regions.count == 2)
        let first = regions[0]
        #expect(first.id == "taipei-main")
        guard case .circle(let shape) = first.geometry else { Issue.record("expected a circle"); return }
        #expect(shape.center == Coordinate(unchecked: 25.0, 121.5))
        #expect(shape.radius == 250.5)
        #expect(first.devices == ["bus-17", "bus-18"])
        #expect(first.notifyOnEntry == false && first.notifyOnExit == true)
        #expect(first.notifyOnDwell == true && first.loiteringDelay == 30)
        #expect(first.bufferDistance == 150 && first.confirmationTime == 15)
        let second = regions[1]
        #expect(second.id == "from-properties")
        #expect(second.devices == nil && second.notifyOnEntry && second.notifyOnExit && second.notifyOnDwell == nil)
        #expect(second.loiteringDelay == nil)
    }

    @Test(arguments: [("7", "7"), ("7.0", "7"), ("7e2", "700"), ("-0", "0"), ("2.5", "2.5"), ("123456789012345678901", "123456789012345678901")])
    func printsNumericIdentifiersAsIntegersWhenIntegral(json: String, id: String) throws {
        let regions = try GeoJSONRegionDecoder.decode(collection(circle(id: json)))
        #expect(regions.first?.id == id)
    }

    @Test func decodesPolygonsWithHolesAndMultiPolygons() throws {
        let outer = "[[0,0],[10,0],[10,10],[0,10],[0,0]]"
        let hole = "[[2,2],[4,2],[4,4],[2,2]]"
        let regions = try GeoJSONRegionDecoder.decode(
            collection(
                polygon(id: "\"a\"", rings: "[\(outer), \(hole)]"),
                polygon(id: "\"b\"", rings: "[[\(outer)], [[[20,20,5],[21,20,5],[21,21,5],[20,20,5]]]]", type: "MultiPolygon")))
        guard case .polygon(let a) = regions[0].geometry, case .polygon(let b) = regions[1].geometry else {
            Issue.record("expected polygons")
            return
        }
        #expect(a.polygons.count == 1 && a.polygons[0].count == 2)
        #expect(a.polygons[0][0].count == 5 && a.polygons[0][1].count == 4)
        #expect(a.polygons[0][0][1] == Coordinate(unchecked: 0, 10))  // [lon, lat]
        #expect(b.polygons.count == 2)
        #expect(b.polygons[1][0][0] == Coordinate(unchecked: 20, 20))  // altitude ignored
        #expect(regions[1].geometry.contains(latitude: 5, longitude: 5))
        #expect(!regions[0].geometry.contains(latitude: 3, longitude: 3.5))  // in the hole
    }

    @Test func closesUnclosedRingsWithAWarning() throws {
        var warnings: [InputError] = []
        let regions = try GeoJSONRegionDecoder.decode(
            collection(polygon(rings: "[[[0,0],[1,0],[1,1]]]")), warnings: &warnings)
        guard case .polygon(let shape) = regions[0].geometry else { Issue.record("expected a polygon"); return }
        #expect(shape.polygons[0][0] == [.init(unchecked: 0, 0), .init(unchecked: 0, 1), .init(unchecked: 1, 1), .init(unchecked: 0, 0)])
        #expect(warnings.count == 1)
        #expect(warnings.first?.field == "features[0].geometry.coordinates[0]")
        #expect(warnings.first?.line == 2)
    }

    @Test func acceptsAnEmptyCollection() throws {
        #expect(try GeoJSONRegionDecoder.decode(Array(#"{"type":"FeatureCollection","features":[]}"#.utf8)).isEmpty)
    }

    static let invalid: [(name: String, json: String, field: String?, message: String)] = [
        ("not an object", "[]", nil, "expected an object, found an array"),
        ("a single feature", #"{"type": "Feature", "geometry": null}"#, "type", "expected \"FeatureCollection\", found \"Feature\""),
        ("no type", #"{"features": []}"#, "type", "missing"),
        ("no features", #"{"type": "FeatureCollection"}"#, "features", "missing"),
        ("features not an array", #"{"type": "FeatureCollection", "features": {}}"#, "features", "expected an array, found an object"),
        ("bad JSON", #"{"type": "FeatureCollection", "features": [}"#, nil, "expected a value"),
    ]

    @Test(arguments: invalid)
    func rejectsFilesThatAreNotFeatureCollections(name: String, json: String, field: String?, message: String) throws {
        let error = try #require(decodeError(Array(json.utf8)), "\(name)")
        #expect(error.field == field, "\(name)")
        #expect(error.message.contains(message), "\(name): \(error.message)")
        #expect(error.line == 1)
    }

    /// Bad features, each placed as the fourth feature (index 3, line 5) after three good ones.
    static let badFeatures: [(feature: String, field: String, message: String)] = [
        (#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 5}}"#,
         "features[3].id", "missing"),
        (#"{"type": "Feature", "id": "", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 5}}"#,
         "features[3].id", "must not be empty"),
        (#"{"type": "Feature", "id": true, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 5}}"#,
         "features[3].id", "expected a string or a number, found a boolean"),
        (#"{"type": "Feature", "id": "c1", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 5}}"#,
         "features[3].id", "duplicate id \"c1\" (features[1] has it too)"),
        (#"{"type": "Feature", "properties": {"id": "c2", "radius": 5}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#,
         "features[3].properties.id", "duplicate id \"c2\" (features[2] has it too)"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 0}}"#,
         "features[3].properties.radius", "must be > 0"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": -3}}"#,
         "features[3].properties.radius", "must be > 0"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 1000001}}"#,
         "features[3].properties.radius", "must be ≤ 1000000 m"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 1e999}}"#,
         "features[3].properties.radius", "too large"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": "NaN"}}"#,
         "features[3].properties.radius", "expected a number, found a string"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {}}"#,
         "features[3].properties.radius", "missing"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#,
         "features[3].properties.radius", "missing"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [10, 95]}, "properties": {"radius": 5}}"#,
         "features[3].geometry.coordinates[1]", "lat 95.0 is out of range"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [-181, 0]}, "properties": {"radius": 5}}"#,
         "features[3].geometry.coordinates[0]", "lon -181.0 is out of range"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [10]}, "properties": {"radius": 5}}"#,
         "features[3].geometry.coordinates", "a position needs [longitude, latitude], found 1 number"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": ["10", 0]}, "properties": {"radius": 5}}"#,
         "features[3].geometry.coordinates[0]", "expected a number, found a string"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 0]]]}}"#,
         "features[3].geometry.coordinates[0]", "at least 3 distinct positions, found 2"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 1], [0, 0]]]}}"#,
         "features[3].geometry.coordinates[0]", "at least 3 distinct positions, found 2"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Polygon", "coordinates": []}}"#,
         "features[3].geometry.coordinates", "at least one ring"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 91], [0, 0]]]]}}"#,
         "features[3].geometry.coordinates[0][0][2][1]", "lat 91.0 is out of range"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}"#,
         "features[3].geometry.type", "unsupported geometry type \"LineString\""),
        (#"{"type": "Feature", "id": 1, "geometry": null, "properties": {"radius": 5}}"#,
         "features[3].geometry", "missing"),
        (#"{"type": "Feature", "id": 1, "geometry": {"coordinates": [0, 0]}, "properties": {"radius": 5}}"#,
         "features[3].geometry.type", "missing"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point"}, "properties": {"radius": 5}}"#,
         "features[3].geometry.coordinates", "missing"),
        (#"{"type": "Featur", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#,
         "features[3].type", "expected \"Feature\", found \"Featur\""),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": []}"#,
         "features[3].properties", "expected an object, found an array"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 5, "notifyOnEntry": "yes"}}"#,
         "features[3].properties.notifyOnEntry", "expected true or false, found a string"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 5, "devices": "bus-17"}}"#,
         "features[3].properties.devices", "expected an array, found a string"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 5, "devices": ["a", 17]}}"#,
         "features[3].properties.devices[1]", "expected a string, found a number"),
        (#"{"type": "Feature", "id": 1, "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius": 5, "loiteringDelay": -1}}"#,
         "features[3].properties.loiteringDelay", "must be ≥ 0"),
        ("17", "features[3]", "expected an object, found a number"),
    ]

    @Test(arguments: badFeatures)
    func namesTheFeatureIndexAndFieldOfEveryError(feature: String, field: String, message: String) throws {
        let bytes = collection(circle(id: "\"c0\""), circle(id: "\"c1\""), circle(id: "null", properties: #""id": "c2", "radius": 1"#), feature)
        let error = try #require(decodeError(bytes))
        #expect(error.field == field)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.line == 5)
        #expect(error.column != nil)
    }

    @Test func pointsAtTheOffendingValue() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "a",
               "geometry": {"type": "Point", "coordinates": [121.5, 25.0]},
               "properties": {"radius": -5}}
            ]}
            """
        let error = try #require(decodeError(Array(text.utf8)))
        #expect(error.line == 4 && error.column == 29)
        #expect(error.in(file: "regions.geojson").description
            == "regions.geojson:4:29: features[0].properties.radius: must be > 0")
    }

    @Test func suggestsSwappedCoordinatesWhenLatitudeIsOutOfRange() throws {
        let error = try #require(decodeError(collection(circle(center: "[25.0, 121.5]"))))
        #expect(error.message.contains("[longitude, latitude]"))
    }
}
