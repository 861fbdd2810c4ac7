import Testing

@testable import GeofenceFormats
import GeofenceKit

@Suite struct GPXReaderTests {
    /// The events of `bytes` fed in chunks of `chunkSize` bytes, or the fatal error.
    static func read(_ bytes: [UInt8], chunkSize: Int, maxTokenLength: Int = 1 << 20) -> Result<[GPXEvent], InputError> {
        var reader = GPXReader(maxTokenLength: maxTokenLength)
        var events: [GPXEvent] = []
        do {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunkSize)
                events += try reader.feed(Array(bytes[start..<end]))
                start = end
            }
            events += try reader.finish()
            return .success(events)
        } catch {
            return .failure(error)
        }
    }

    static func read(_ text: String, chunkSize: Int = 4096) -> Result<[GPXEvent], InputError> {
        read(Array(text.utf8), chunkSize: chunkSize)
    }

    static func events(_ text: String, chunkSize: Int = 4096) throws -> [GPXEvent] {
        try read(text, chunkSize: chunkSize).get()
    }

    static func fatal(_ text: String, chunkSize: Int = 4096) -> InputError? {
        if case .failure(let error) = read(text, chunkSize: chunkSize) { return error }
        return nil
    }

    static func time(_ text: String) -> Timestamp? { Timestamp(iso8601: text) }

    static let chunkSizes = [1, 7, 4096]

    // MARK: Structure

    static let richDocument = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <!-- exported by hand -->
        <?xml-stylesheet href="style.xsl"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
          <metadata><name>Fish &amp; Chips</name><time>2024-01-01T00:00:00Z</time></metadata>
          <wpt lat="25.0478" lon="121.5170"><name>Taipei Main</name><ele>9.5</ele></wpt>
          <rte><name>r</name>
            <rtept lat='25.1' lon='121.6'/>
            <rtept lat="25.2" lon="121.7"><time>2024-01-01T00:01:00Z</time></rtept>
          </rte>
          <rte/>
          <trk><name>t</name>
            <trkseg>
              <trkpt lat="-33.5" lon="-70.25"><ele>12</ele><time><![CDATA[2024-01-01T08:00:00Z]]></time>
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension>
                  <trkpt lat="1" lon="1"/></extensions>
              </trkpt>
              <trkpt
                 lat="-33.6"
                 lon="-70.35"><time> 2024-01-01T08:00:01.250Z </time></trkpt>
            </trkseg>
            <trkseg></trkseg>
          </trk>
          <trk><trkseg><trkpt lat="0" lon="0"/></trkseg></trk>
          <extensions><wpt lat="5" lon="5"/></extensions>
        </gpx>
        <!-- trailing comment -->

        """

    static let richEvents: [GPXEvent] = [
        .document(version: "1.1"),
        .waypoint(GPXPoint(latitude: 25.0478, longitude: 121.5170, elevation: 9.5, line: 7)),
        .routeStart,
        .routePoint(GPXPoint(latitude: 25.1, longitude: 121.6, line: 9)),
        .routePoint(GPXPoint(latitude: 25.2, longitude: 121.7, time: time("2024-01-01T00:01:00Z"), line: 10)),
        .routeEnd,
        .routeStart, .routeEnd,
        .trackStart,
        .segmentStart,
        .trackPoint(GPXPoint(latitude: -33.5, longitude: -70.25, time: time("2024-01-01T08:00:00Z"), elevation: 12, line: 15)),
        .trackPoint(GPXPoint(latitude: -33.6, longitude: -70.35, time: time("2024-01-01T08:00:01.25Z"), line: 19)),
        .segmentEnd,
        .segmentStart, .segmentEnd,
        .trackEnd,
        .trackStart, .segmentStart, .trackPoint(GPXPoint(latitude: 0, longitude: 0, line: 25)), .segmentEnd, .trackEnd,
    ]

    @Test(arguments: chunkSizes)
    func eventsAreTheSameWhateverTheChunkSize(chunkSize: Int) throws {
        #expect(try Self.events(Self.richDocument, chunkSize: chunkSize) == Self.richEvents)
    }

    @Test func feedingIntoAnArrayAppendsTheSameEvents() throws {
        var reader = GPXReader()
        var events: [GPXEvent] = [.trackEnd]
        try reader.feed(Array(Self.richDocument.utf8), into: &events)
        try reader.finish(into: &events)
        #expect(events == [.trackEnd] + Self.richEvents)
        #expect(try GPXReader.events(in: Array(Self.richDocument.utf8)) == Self.richEvents)
    }

    @Test(arguments: chunkSizes)
    func readsGPX10WithoutDeclarationNamespaceOrVersion(chunkSize: Int) throws {
        let version10 = """
            <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><time>2010-01-01T00:00:00Z</time>
            <trk><trkseg><trkpt lat="45.5" lon="14.25"><ele>500</ele><time>2010-10-03T09:36:30Z</time><speed>1.5</speed></trkpt></trkseg></trk>
            </gpx>
            """
        #expect(try Self.events(version10, chunkSize: chunkSize) == [
            .document(version: "1.0"), .trackStart, .segmentStart,
            .trackPoint(GPXPoint(latitude: 45.5, longitude: 14.25, time: Self.time("2010-10-03T09:36:30Z"), elevation: 500, line: 2)),
            .segmentEnd, .trackEnd,
        ])
        #expect(try Self.events("<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>", chunkSize: chunkSize) == [
            .document(version: nil), .waypoint(GPXPoint(latitude: 1, longitude: 2, line: 1)),
        ])
    }

    @Test(arguments: chunkSizes)
    func aByteOrderMarkIsSkippedAndDoesNotCountAsAColumn(chunkSize: Int) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for body in ["<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>", "<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>"] {
            let result = Self.read(bom + Array(body.utf8), chunkSize: chunkSize)
            let line = body.hasPrefix("<?xml") ? 2 : 1
            #expect(result == .success([.document(version: nil), .waypoint(GPXPoint(latitude: 1, longitude: 2, line: line))]))
        }
        #expect(Self.read(bom + Array("<kml/>".utf8), chunkSize: chunkSize).error?.column == 1)
    }

    // MARK: Encodings

    @Test(arguments: chunkSizes)
    func latin1IsTranscodedToUTF8(chunkSize: Int) throws {
        // "é" is the single byte 0xE9 in ISO-8859-1; it must reach messages as UTF-8 and count as one column.
        var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx><wpt><name>Caf".utf8)
        bytes += [0xE9]
        bytes += Array("</name></wpt><wpt lat=\"4".utf8) + [0xE9] + Array("\" lon=\"2\"/><wpt lat=\"1\" lon=\"2\"/></gpx>".utf8)
        let events = try Self.read(bytes, chunkSize: chunkSize).get()
        #expect(events.count == 4)
        guard case .invalidPoint(.waypoint, let missing) = events[1], case .invalidPoint(.waypoint, let bad) = events[2] else {
            Issue.record("expected two refused waypoints: \(events)")
            return
        }
        #expect(missing.field == "wpt.lat")
        #expect(bad.message == "\"4é\" is not a number")
        #expect(bad.line == 2 && bad.column == 39)
        #expect(events[3] == .waypoint(GPXPoint(latitude: 1, longitude: 2, line: 2)))
    }

    @Test func usASCIIAndUTF8AreReadAsTheyAre() throws {
        for name in ["US-ASCII", "utf-8", "UTF8", "latin1"] {
            let document = "<?xml version='1.0' encoding='\(name)'?><gpx><wpt lat='1' lon='2'/></gpx>"
            #expect(try Self.events(document).count == 2, "\(name)")
        }
    }

    @Test func otherEncodingsAreRefusedWithAClearError() throws {
        let error = try #require(Self.fatal("<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<gpx/>"))
        #expect(error.message.contains("windows-1252") && error.message.contains("UTF-8"))
        #expect(error.field == "encoding" && error.line == 1 && error.column == 1)
        let utf16 = Self.read([0xFF, 0xFE] + Array("<\0g\0".utf8), chunkSize: 4096)
        #expect(utf16.error?.message.contains("UTF-16") == true)
    }

    // MARK: Namespaces, CDATA, references

    @Test(arguments: chunkSizes)
    func elementsAndAttributesAreMatchedByLocalNameWhateverTheirPrefix(chunkSize: Int) throws {
        let document = """
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" g:version="1.1"><g:trk><g:trkseg>
            <g:trkpt g:lat="1.5" lon="2.5"><g:time>2024-01-01T00:00:00Z</g:time>
            <g:extensions><gpxpx:PowerExtension><gpxpx:PowerInWatts>200</gpxpx:PowerInWatts></gpxpx:PowerExtension></g:extensions>
            </g:trkpt></g:trkseg></g:trk></g:gpx>
            """
        #expect(try Self.events(document, chunkSize: chunkSize) == [
            .document(version: "1.1"), .trackStart, .segmentStart,
            .trackPoint(GPXPoint(latitude: 1.5, longitude: 2.5, time: Self.time("2024-01-01T00:00:00Z"), line: 2)),
            .segmentEnd, .trackEnd,
        ])
    }

    @Test(arguments: chunkSizes)
    func cdataEntitiesAndCharacterReferencesAreDecodedInValues(chunkSize: Int) throws {
        let document = """
            <gpx version="1&#46;1"><wpt lat="4&#x37;.5" lon="&#49;0"><time>2024-01-01T00:00:00&#x5A;</time>\
            <ele><![CDATA[1]]>2.5</ele><name>&lt;&gt;&amp;&quot;&apos;&#233;</name></wpt>\
            <wpt lat="1" lon="1"><time><![CDATA[2024-01-01]]>T00:00:00<!-- a comment -->Z</time></wpt>\
            <wpt lat="1" lon="1"><time>2024&nbsp;</time></wpt></gpx>
            """
        let events = try Self.events(document, chunkSize: chunkSize)
        #expect(Array(events.prefix(3)) == [
            .document(version: "1.1"),
            .waypoint(GPXPoint(latitude: 47.5, longitude: 10, time: Self.time("2024-01-01T00:00:00Z"), elevation: 12.5, line: 1)),
            .waypoint(GPXPoint(latitude: 1, longitude: 1, time: Self.time("2024-01-01T00:00:00Z"), line: 1)),
        ])
        guard case .invalidPoint(.waypoint, let error)? = events.last else {
            Issue.record("expected a refused waypoint: \(events)")
            return
        }
        #expect(error.field == "wpt.time" && error.message.contains("&nbsp;"))
    }

    @Test func aDoctypeWithoutInternalSubsetIsSkippedButEntitiesAreRefused() throws {
        let plain = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx SYSTEM \"http://example.com/gpx.dtd\">\n<gpx/>"
        #expect(try Self.events(plain) == [.document(version: nil)])
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            ]>
            <gpx><wpt lat="1" lon="2"><name>&lol2;</name></wpt></gpx>
            """
        for chunkSize in Self.chunkSizes {
            let error = try #require(Self.fatal(laughs, chunkSize: chunkSize))
            #expect(error.line == 2 && error.column == 1)
            #expect(error.message.contains("DOCTYPE") && error.message.contains("entit"))
        }
        let external = "<!DOCTYPE gpx [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><gpx>&xxe;</gpx>"
        #expect(Self.fatal(external)?.message.contains("DOCTYPE") == true)
    }

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

    // MARK: Fatal errors

    static let fatalDocuments: [(name: String, document: String, line: Int, column: Int, message: String)] = [
        ("not XML", "lat,lon\n1,2\n", 1, 1, "this is not an XML document"),
        ("JSON", "\n  {\"type\": \"FeatureCollection\"}", 2, 3, "this is not an XML document"),
        ("empty", "", 1, 1, "no root element"),
        ("only a comment", "<!-- nothing -->\n", 2, 1, "no root element"),
        ("truncated", "<gpx>\n<trk>\n<trkseg>\n<trkpt lat=\"1\" lon=\"2\">", 4, 24, "ends before </trkpt>"),
        ("truncated inside a tag", "<gpx>\n<trk>\n<trkseg>\n<trkpt lat=\"1", 4, 1, "ends inside a tag"),
        ("mismatched end tag", "<gpx>\n  <trk><trkseg></trk>\n</gpx>", 2, 16, "</trk> does not match <trkseg> (opened at line 2, column 8)"),
        ("stray end tag", "</gpx>", 1, 1, "without a start tag"),
        ("root is not gpx", "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"/>", 2, 1, "the root element is <kml>, not <gpx>"),
        ("text after the root", "<gpx/>\nextra", 2, 1, "text after the end of the root element"),
        ("second root", "<gpx/><gpx/>", 1, 7, "a second root element"),
        ("bare entity declaration", "<!ENTITY x \"y\"><gpx/>", 1, 1, "entity declarations are refused"),
        ("CDATA outside the root", "<![CDATA[x]]><gpx/>", 1, 1, "CDATA section outside the root"),
        ("unterminated comment", "<gpx>\n<!-- open", 2, 10, "ends inside a comment opened at line 2, column 1"),
        ("unquoted attribute", "<gpx version=1.1/>", 1, 14, "must be in quotes"),
        ("declaration not first", "<gpx/><?xml version=\"1.0\"?>", 1, 7, "only allowed at the start"),
        ("unclosed declaration", "<?xml version=\"1.0\"", 1, 1, "not closed"),
    ]

    @Test(arguments: fatalDocuments)
    func structuralErrorsAreFatalWithTheirPosition(name: String, document: String, line: Int, column: Int, message: String) {
        for chunkSize in Self.chunkSizes {
            let error = Self.fatal(document, chunkSize: chunkSize)
            #expect(error?.line == line && error?.column == column, "\(name), chunks of \(chunkSize): \(String(describing: error))")
            #expect(error?.message.contains(message) == true, "\(name): \(String(describing: error))")
        }
    }

    @Test func theEventsBeforeAFatalErrorAreKeptAndTheErrorIsRethrown() {
        var reader = GPXReader()
        var events: [GPXEvent] = []
        #expect(throws: InputError.self) {
            try reader.feed(Array("<gpx><wpt lat=\"1\" lon=\"2\"/></trk>".utf8), into: &events)
        }
        #expect(events == [.document(version: nil), .waypoint(GPXPoint(latitude: 1, longitude: 2, line: 1))])
        #expect(throws: InputError.self) { try reader.feed(Array("<x/>".utf8)) }
        #expect(throws: InputError.self) { try reader.finish() }
    }

    // MARK: Memory

    @Test(arguments: [1 << 10, 1 << 16])
    func longTextCommentsAndCDATAAreNeverHeldInMemory(chunkSize: Int) throws {
        var reader = GPXReader(maxTokenLength: 4096)
        var largest = 0
        var count = 0
        func feed(_ text: String) throws {
            let bytes = Array(text.utf8)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunkSize)
                count += try reader.feed(Array(bytes[start..<end])).count
                largest = max(largest, reader.bufferedByteCount)
                start = end
            }
        }
        try feed("<gpx><wpt lat=\"1\" lon=\"2\"><desc>")
        for _ in 0..<64 { try feed(String(repeating: "long text &amp; more ", count: 5_000)) }
        try feed("</desc><extensions><!--")
        for _ in 0..<64 { try feed(String(repeating: "a comment -- ", count: 5_000)) }
        try feed("--><x><![CDATA[")
        for _ in 0..<64 { try feed(String(repeating: "]] data ", count: 5_000)) }
        try feed("]]></x></extensions></wpt></gpx>")
        count += try reader.finish().count
        #expect(count == 2)
        #expect(largest < 64)
    }

    @Test func aTagLongerThanTheLimitIsAnError() throws {
        let document = "<gpx>\n<wpt lat=\"1\" lon=\"2\" note=\"" + String(repeating: "x", count: 10_000) + "\"/></gpx>"
        let error = try #require(Self.read(Array(document.utf8), chunkSize: 1024, maxTokenLength: 4096).error)
        #expect(error.line == 2 && error.column == 1)
        #expect(error.message.contains("longer than 4096 bytes"))
    }
}

fileprivate extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
