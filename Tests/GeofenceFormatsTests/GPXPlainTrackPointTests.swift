import Foundation
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// The one-pass track-point reader (``GPXPlainTrackPoint``) against the general path it stands in for: every
/// document gives the same events, warnings and errors (messages, lines and columns) either way, in any chunking.
@Suite struct GPXPlainTrackPointTests {
    /// The events of `bytes` fed in chunks of `chunkSize`, or the fatal error, with or without the one-pass reader.
    static func read(_ bytes: [UInt8], chunkSize: Int, plain: Bool, maxTokenLength: Int = 1 << 20)
        -> Result<[GPXEvent], InputError>
    {
        var reader = GPXReader(maxTokenLength: maxTokenLength, readsPlainTrackPoints: plain)
        var events: [GPXEvent] = []
        do {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunkSize)
                try reader.feed(Array(bytes[start..<end]), into: &events)
                start = end
            }
            try reader.finish(into: &events)
            return .success(events)
        } catch {
            return .failure(error)
        }
    }

    /// Records where the two paths differ on `bytes` (fed whole and in `chunkSizes`).
    static func expectSameReading(
        _ bytes: [UInt8], chunkSizes: [Int] = [1 << 20, 7, 61], maxTokenLength: Int = 1 << 20,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let general = read(bytes, chunkSize: 1 << 20, plain: false, maxTokenLength: maxTokenLength)
        for chunkSize in chunkSizes {
            let plain = read(bytes, chunkSize: chunkSize, plain: true, maxTokenLength: maxTokenLength)
            #expect(
                plain == general, "chunks of \(chunkSize): \(String(decoding: bytes.prefix(2_000), as: UTF8.self))",
                sourceLocation: sourceLocation)
        }
    }

    static func document(_ points: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
             <trk><trkseg>
            \(points)
             </trkseg></trk>
            </gpx>

            """.utf8)
    }

    /// Track points in the shapes the one-pass reader takes and in the ones just beside them, which it must leave
    /// to the general path (each reported, warned about or refused the same way).
    static let pointShapes: [String] = [
        #"<trkpt lat="47.6445480" lon="-122.3268970"><ele>4.46</ele><time>2009-10-17T18:37:26Z</time></trkpt>"#,
        "<trkpt lat=\"1.5\" lon=\"2.5\">\n  <ele>-12</ele>\n  <time>2024-02-29T23:59:60Z</time>\n</trkpt>",
        "<trkpt\tlon='2.5'\r\n lat='-1.5' >\r\n<time>2024-05-01T10:00:00.1234567Z</time><ele>+5.</ele></trkpt>",
        #"<trkpt lat="0" lon="0"/>"#,
        #"<trkpt lat="90" lon="-180" />"#,
        #"<trkpt lat="1" lon="2"></trkpt>"#,
        #"<trkpt lat=".5" lon="5."><ele>.25</ele></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00.999999999Z</time></trkpt>"#,
        // Left to the general path, whole or from a child on.
        #"<trkpt lat="1" lon="2"><ele>4</ele><extensions><a:hr>120</a:hr></extensions><time>2024-05-01T10:00:00Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>4</ele><ele>5</ele><time>2024-05-01T10:00:00Z</time><time>2024-05-01T10:00:01Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele> 4 </ele><time> 2024-05-01T10:00:00Z </time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>bad data</ele></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>1e3</ele><time>2024-05-01T10:00:00+02:00</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01t10:00:00z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-02-30T10:00:00Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01T24:00:00Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00.Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01T10:00:00.1234567890Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time></time><ele/></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>&#49;</ele><time>2024-05-01T10:00:00&#90;</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele><![CDATA[7]]></ele><!-- c --></trkpt>"#,
        #"<trkpt lat="1" lon="2">text<ele>1</ele></trkpt >"#,
        #"<trkpt lat="1" lon="2"><ele>1</ele></trkpt><trkpt lat="3" lon="4"><ele>1</ele></trkpt>"#,
        #"<trkpt lat="91" lon="2"/>"#,
        #"<trkpt lat="100" lon="45"/>"#,
        #"<trkpt lat="1" lon="-180.0000001"/>"#,
        #"<trkpt lat="undefined" lon="undefined"/>"#,
        #"<trkpt lat="1" lon="2" lat="3"/>"#,
        #"<trkpt lat="1"/>"#,
        #"<trkpt lat="1" lon="2" time="x"/>"#,
        #"<trkpt lat = "1" lon="2"/>"#,
        #"<trkpt lat="1"lon="2"/>"#,
        #"<trkpt lat="1' lon="2"/>"#,
        #"<trkpt lat="1.00000000000000000000001" lon="2"/>"#,
        #"<trkpt lat="0000000000000000000001.5" lon="2"/>"#,
        #"<trkpt lat="&#49;" lon="2"/>"#,
        #"<trkpt lat=" 1" lon="2 "/>"#,
        #"<trkpt lat="NaN" lon="INF"/>"#,
        #"<trkpt lat="-0" lon="-0.0"><ele>-0</ele></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>1</ele></trkpt"#,
        #"<trkpt lat="1" lon="2"><ele>1</ele></trk>"#,
        #"<trkpt lat="1" lon="2"><ele>1</elevation></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>1</ele>"#,
        #"<trkpt lat="1" lon="2" / >"#,
        #"<gpx:trkpt lat="1" lon="2"/>"#,
        #"<trkpt x:lat="1" x:lon="2"/>"#,
        "<trkpt lat=\"1\" lon=\"2\"><name>Café</name><ele>1</ele></trkpt>",
        #"<trkptx lat="1" lon="2"/>"#,
        #"<trkpt lat="1" lon="2">"#,
        // Other children: skipped whole when plain, else left to the general path from there.
        "<trkpt lat=\"1\" lon=\"2\"><ele>4</ele>\n <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr><gpxtpx:cad>80</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions>\n</trkpt>",
        #"<trkpt lat="1" lon="2"><name>A &amp; B</name><sat>7</sat><hdop/><time>2024-05-01T10:00:00Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><a><b><c><d>deep</d></c></b></a></extensions></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><a x="1">v</a></extensions></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><a>v</b></extensions></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><a>v</a ></extensions></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><a>v</a></extension></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><!x></!x></extensions></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><?x?><![CDATA[a]]></extensions></trkpt>"#,
        #"<trkpt lat="1" lon="2"><!x></!x><ele>1</ele></trkpt>"#,
        #"<trkpt lat="1" lon="2"><x:ele>5</x:ele><y:time>2024-05-01T10:00:00Z</y:time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><a:>x</a:><ele:>6</ele:><time:/></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><time>2024-05-01T10:00:00Z</time><ele>9</ele></extensions><ele>3</ele></trkpt>"#,
        "<trkpt lat=\"1\" lon=\"2\"><name>Zürich</name><ele>1</ele></trkpt>",
        "<trkpt lat=\"1\" lon=\"2\"><näme>x</näme><ele>1</ele></trkpt>",
        "<trkpt lat=\"1\" lon=\"2\"><desc>line one\nline two\r\n</desc>\n<ele>1</ele><bad></trkpt>",
        #"<trkpt lat="1" lon="2"><ele>1</ele><cmt>"#,
    ]

    @Test func everyShapeReadsAsTheGeneralPathReadsIt() {
        for shape in Self.pointShapes {
            Self.expectSameReading(Self.document(shape))
            Self.expectSameReading(Self.document("\(shape)\n\(Self.pointShapes[0])\n  \(shape)"))
        }
    }

    @Test func plainPointsAreReadInOnePass() throws {
        // The plain shapes give the points the general path gives (checked above) and the one-pass reader reads
        // them: its reading of a document of plain points ends at the segment's end.
        func read(_ text: String) -> GPXPlainTrackPoint? {
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                GPXPlainTrackPoint.read(
                    bytes.baseAddress!, at: 0, count: bytes.count, line: 3, maxTagLength: 1 << 20, maxDepth: 1_000)
            }
        }
        let shape = "<trkpt lat=\"47.644548\" lon=\"-122.326897\">\n  <ele>4.46</ele>\n  <time>2009-10-17T18:37:26Z</time>\n"
            + "  <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>\n"
            + "</trkpt>\n    "
        let point = try #require(read(shape))
        #expect(point.isClosed && point.end == shape.utf8.count)
        #expect(point.lineFeeds == 5 && point.lastLineStart == shape.utf8.count - 4)
        #expect(point.point == GPXPoint(
            latitude: 47.644548, longitude: -122.326897, time: Timestamp(iso8601: "2009-10-17T18:37:26Z"),
            elevation: 4.46, line: 3))
        // A point left open at what is not plain, with the values before it.
        let open = try #require(read(#"<trkpt lat="1" lon="2"><ele>7</ele><!-- c --><time>2009-10-17T18:37:26Z</time></trkpt>"#))
        #expect(!open.isClosed && open.end == 35 && open.point.elevation == 7 && open.point.time == nil)
        #expect(read(#"<trkpt lat="1" lon="2" hdop="3"/>"#) == nil)
    }

    @Test func literalsAreTheirTags() {
        let literals: [(GPXPlainTrackPoint.Literal, String)] = [
            (.trkptStart, "<trkpt"), (.trkptEnd, "</trkpt>"), (.eleStart, "<ele>"), (.eleEnd, "</ele>"),
            (.timeStart, "<time>"), (.timeEnd, "</time>"),
        ]
        for (literal, text) in literals {
            let word = text.utf8.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            #expect(literal.word == word && literal.count == text.utf8.count, "\(text)")
            // Matched at the end of a buffer (byte by byte) and inside one (a word at a time), and nothing else.
            for suffix in ["", "xxxxxxxx"] {
                let bytes = Array((text + suffix).utf8)
                let wrong = Array(("<" + text.dropFirst(2) + suffix).utf8)
                bytes.withUnsafeBufferPointer { #expect(literal.matches($0.baseAddress!, 0, $0.count)) }
                wrong.withUnsafeBufferPointer { #expect(!literal.matches($0.baseAddress!, 0, $0.count)) }
            }
        }
    }

    @Test func tagLimitIsTheTokenizers() {
        // A start tag over the limit is refused with the tokenizer's error, whichever path sees it first.
        let wide = "<trkpt lat=\"1.5\"" + String(repeating: " ", count: 40) + "lon=\"2.5\"><ele>1</ele></trkpt>"
        for limit in [64, 70, 80] {
            Self.expectSameReading(Self.document(wide), chunkSizes: [1 << 20, 13], maxTokenLength: limit)
        }
    }

    /// The tokenizer's depth limit, whichever path opens the element past it.
    @Test func depthLimitIsTheTokenizers() {
        let bytes = Self.document(
            #"<trkpt lat="1" lon="2"><ele>4</ele><extensions><a><b>x</b></a></extensions></trkpt><trkpt lat="3" lon="4"/>"#)
        for maxDepth in 3...9 {
            func read(plain: Bool) -> Result<[GPXEvent], InputError> {
                var tokenizer = XMLTokenizer(maxDepth: maxDepth)
                var builder = GPXEventBuilder()
                builder.readsPlainTrackPoints = plain
                do {
                    try tokenizer.feed(bytes, to: &builder)
                    try tokenizer.finish(to: &builder)
                    return .success(builder.events)
                } catch {
                    return .failure(error)
                }
            }
            #expect(read(plain: true) == read(plain: false), "maxDepth \(maxDepth)")
        }
    }

    /// Documents of random points built from pieces of the shapes above, in random chunkings.
    @Test func generatedDocumentsReadTheSame() {
        var random = SplitMix64(seed: 15)
        let pieces = [
            #"<ele>12.5</ele>"#, "<time>2024-05-01T10:00:0\(0)Z</time>", "\n    ", " ", "\t", "\r\n",
            #"<extensions><x:hr>1</x:hr></extensions>"#, "<!-- note -->", "<sat>7</sat>", "<a><b/></a>", "</a>", #"<ele>x</ele>"#, "<time>bad</time>",
            #"<ele>-3</ele>"#, "<time>2024-05-01T10:00:00.5Z</time>", "<name>é</name>", "&amp;", "<ele>1",
        ]
        for _ in 0..<400 {
            var text = ""
            for index in 0..<Int(random.next() % 6) + 1 {
                let latitude = Double(Int64(random.next() % 2_000_001) - 1_000_000) / 10_000
                let longitude = Double(Int64(random.next() % 4_000_001) - 2_000_000) / 10_000
                text += "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\">"
                for _ in 0..<Int(random.next() % 5) {
                    text += pieces[Int(random.next() % UInt64(pieces.count))]
                }
                text += index % 3 == 2 ? "</trkpt>\n" : "</trkpt>"
            }
            let chunk = 1 + Int(random.next() % 97)
            Self.expectSameReading(Self.document(text), chunkSizes: [1 << 20, chunk])
        }
    }

    /// Damaged documents (the mutation tests' bytes and fragments) read the same by both paths.
    @Test func mutatedDocumentsReadTheSame() {
        var random = SplitMix64(seed: 1_515)
        let base = Self.document((Self.pointShapes[0..<8] + Self.pointShapes.filter { $0.contains("gpxtpx:cad") }).joined(separator: "\n  "))
        for _ in 0..<600 {
            let bytes = Mutator.mutate(base, donors: Mutator.fragments + Mutator.values, random: &random)
            Self.expectSameReading(bytes, chunkSizes: [1 << 20, 1 + Int(random.next() % 50)])
        }
    }

    /// The real files of the CLI tests' fixtures (device exports, every GPX field, extensions, bad values).
    @Test func realFilesReadTheSame() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CLITests/Fixtures/gpx")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".gpx") }
        #expect(names.count >= 20)
        for name in names {
            let bytes = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path))
            Self.expectSameReading(Array(bytes), chunkSizes: [1 << 20, 4_093])
        }
    }
}
