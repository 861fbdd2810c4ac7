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
}

extension Result {
    /// The failure, or nil on success (the GPX reader tests compare errors).
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
