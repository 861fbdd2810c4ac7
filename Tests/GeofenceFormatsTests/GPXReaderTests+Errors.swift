import Testing

@testable import GeofenceFormats
import GeofenceKit

extension GPXReaderTests {
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
