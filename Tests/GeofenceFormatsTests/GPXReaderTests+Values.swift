import Testing

@testable import GeofenceFormats
import GeofenceKit

extension GPXReaderTests {
    // MARK: Times

    static let times: [(text: String, expected: String)] = [
        ("2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"),
        ("2024-05-01T15:30:00+05:30", "2024-05-01T10:00:00Z"),
        ("2024-05-01T02:00:00-0800", "2024-05-01T10:00:00Z"),
        ("2024-05-01T10:00:00.123456789Z", "2024-05-01T10:00:00.123457Z"),
        ("2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.5Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("0000-03-01T00:00:00Z", "0000-03-01T00:00:00Z"),
        ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
        ("\n   2024-05-01T10:00:00Z\t\n", "2024-05-01T10:00:00Z"),
        ("2024-05-01T10:00:00", "2024-05-01T10:00:00Z"),  // no zone: GPX times are UTC
    ]

    @Test(arguments: times)
    func timesAreReadWithOffsetsFractionsAndFarYears(text: String, expected: String) throws {
        let events = try Self.events("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>\(text)</time></trkpt></trkseg></trk></gpx>")
        guard case .trackPoint(let point) = events[3] else {
            Issue.record("expected a track point: \(events)")
            return
        }
        #expect(point.time?.iso8601 == expected)
    }

    @Test func aBadTimeRefusesThePointAndAnEmptyOneIsIgnoredWithAWarning() throws {
        let document = """
            <gpx><trk><trkseg>
              <trkpt lat="1" lon="2"><time>yesterday</time></trkpt>
              <trkpt lat="1" lon="2"><time>2024-13-01T00:00:00Z</time></trkpt>
              <trkpt lat="1" lon="2"><time/></trkpt>
              <trkpt lat="1" lon="2"><time>2024-01-01T00:00:00Z</time><time>garbage</time></trkpt>
            </trkseg></trk></gpx>
            """
        let events = try Self.events(document)
        guard case .invalidPoint(.trackPoint, let word) = events[3], case .invalidPoint(.trackPoint, let month) = events[4] else {
            Issue.record("expected two refused points: \(events)")
            return
        }
        #expect(word.field == "trkpt.time" && word.line == 2 && word.column == 26)
        #expect(word.message.contains("\"yesterday\" is not an ISO-8601 time"))
        #expect(month.message.contains("month 13"))
        #expect(events[5] == .warning(InputError("empty <time> ignored", line: 4, column: 26, field: "trkpt.time")))
        #expect(events[6] == .trackPoint(GPXPoint(latitude: 1, longitude: 2, line: 4)))
        #expect(events[7] == .trackPoint(GPXPoint(latitude: 1, longitude: 2, time: Self.time("2024-01-01T00:00:00Z"), line: 5)))
    }

    @Test func aBadElevationIsDroppedWithAWarningAndThePointKept() throws {
        let events = try Self.events("<gpx>\n<wpt lat=\"1\" lon=\"2\">\n  <ele>bad data</ele></wpt></gpx>")
        #expect(events == [
            .document(version: nil),
            .warning(InputError("\"bad data\" is not a number; the elevation is ignored", line: 3, column: 3, field: "wpt.ele")),
            .waypoint(GPXPoint(latitude: 1, longitude: 2, line: 2)),
        ])
    }

    // MARK: Invalid points

    static let invalidPoints: [(attributes: String, field: String, column: Int, message: String)] = [
        ("lon=\"2\"", "trkpt.lat", 3, "required attribute is missing"),
        ("lat=\"1\"", "trkpt.lon", 3, "required attribute is missing"),
        ("lat=\"undefined\" lon=\"2\"", "trkpt.lat", 10, "\"undefined\" is not a number"),
        ("lat=\"1\" lon=\"y\"", "trkpt.lon", 18, "\"y\" is not a number"),
        ("lat=\"\" lon=\"2\"", "trkpt.lat", 10, "\"\" is not a number"),
        ("lat=\"NaN\" lon=\"2\"", "trkpt.lat", 10, "\"NaN\" is not a finite number"),
        ("lat=\"1\" lon=\"-INF\"", "trkpt.lon", 18, "\"-INF\" is not a finite number"),
        ("lat=\"1e999\" lon=\"2\"", "trkpt.lat", 10, "\"1e999\" is not a finite number"),
        ("lat=\"90.0001\" lon=\"2\"", "trkpt.lat", 10, "\"90.0001\" is out of range (-90...90); are lat and lon swapped?"),
        ("lat=\"90.0001\" lon=\"120\"", "trkpt.lat", 10, "\"90.0001\" is out of range (-90...90)"),
        ("lat=\"1\" lon=\"-180.5\"", "trkpt.lon", 18, "\"-180.5\" is out of range (-180...180)"),
        ("lat=\"1,5\" lon=\"2\"", "trkpt.lat", 10, "\"1,5\" is not a number"),
        ("lat=\"x\" lon=\"y\"", "trkpt.lat", 10, "\"x\" is not a number; trkpt.lon: \"y\" is not a number"),
    ]

    @Test(arguments: invalidPoints)
    func invalidCoordinatesRefuseThePointAndReadingGoesOn(attributes: String, field: String, column: Int, message: String) throws {
        let document = "<gpx><trk><trkseg>\n  <trkpt \(attributes)><time>2024-01-01T00:00:00Z</time></trkpt>\n  <trkpt lat=\"90\" lon=\"-180\"/>\n</trkseg></trk></gpx>"
        let events = try Self.events(document)
        #expect(events == [
            .document(version: nil), .trackStart, .segmentStart,
            .invalidPoint(.trackPoint, InputError(message, line: 2, column: column, field: field)),
            .trackPoint(GPXPoint(latitude: 90, longitude: -180, line: 3)),
            .segmentEnd, .trackEnd,
        ])
    }

    @Test func coordinatesAreTheNearestDoubles() throws {
        let texts = ["47.644548", "-122.326897", "0.000001", "+5.", ".5", "1.5e1", "45.123456789012345678", "-0", " 12.5 "]
        for text in texts {
            let events = try Self.events("<gpx><wpt lat=\"0\" lon=\"\(text)\"/></gpx>")
            let expected = Double(text.filter { $0 != " " })
            #expect(events.last == .waypoint(GPXPoint(latitude: 0, longitude: expected ?? .nan, line: 1)), "\(text)")
        }
    }
}
