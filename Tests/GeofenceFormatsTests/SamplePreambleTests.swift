import Testing

@testable import GeofenceFormats
import GeofenceKit

/// The preamble tells how the rest of a stream decodes and where its first sample starts, or why none can be read.
@Suite struct SamplePreambleTests {
    static func read(_ text: String, format: SampleFormat? = nil, maxLineLength: Int = 1 << 20)
        throws(SampleDecodingError) -> (format: SampleBlockDecoder.Format, start: Int, line: Int)?
    {
        try SamplePreamble.read(Array(text.utf8), firstLine: 1, format: format, maxLineLength: maxLineLength)
    }

    @Test func aCSVHeaderAfterBlankLinesIsReadAndTheSamplesStartAfterIt() throws {
        let text = "\n \r\ndevice,lat,lon,time\r\nd1,25,121,1795248000\n"
        let preamble = try #require(try Self.read(text))
        #expect(preamble.format == .csv(try CSVSampleHeader("device,lat,lon,time")))
        #expect(preamble.line == 4)
        #expect(Array(text.utf8)[preamble.start...].starts(with: Array("d1,".utf8)))
    }

    @Test func anObjectTellsNDJSONAndIsTheFirstSample() throws {
        let text = "\n{\"device\":\"d1\",\"lat\":25,\"lon\":121,\"time\":1795248000}\n"
        let preamble = try #require(try Self.read(text))
        #expect(preamble.format == .ndjson)
        #expect(preamble.line == 2)
        #expect(preamble.start == 1)
    }

    @Test func aGivenFormatIsNotDetected() throws {
        // Told CSV, an object is a (bad) header, not NDJSON.
        #expect(throws: SampleDecodingError.self) { try Self.read("{\"device\":\"d1\"}\n", format: .csv) }
    }

    /// A GPX file given as a sample stream (`--source stdin < track.gpx`) is named as such, detected or told CSV.
    @Test(arguments: [nil, SampleFormat.csv])
    func xmlIsRefusedAsAGPXFileNotAsABadCSVHeader(format: SampleFormat?) {
        let gpx = "\u{FEFF}  <?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
        do {
            _ = try Self.read(gpx, format: format)
            Issue.record("no error")
        } catch {
            #expect(error.reason == .malformed)
            #expect(error.error.line == 1)
            #expect(error.error.message.contains("found XML ('<')"))
            #expect(error.error.message.contains("gpx:PATH"))
        }
    }

    @Test func blankLinesAloneLeaveThePreambleOpen() throws {
        #expect(try Self.read("\n  \n\r\n") == nil)
        #expect(try Self.read("") == nil)
    }

    @Test func aLineTooLongIsFatalWithItsNumber() {
        #expect(throws: SamplePreamble.lineTooLong(2, maxLineLength: 8)) {
            try Self.read("\ndevice,lat,lon,time\n", maxLineLength: 8)
        }
    }

    @Test func aHeaderAtTheEndOfTheBlockLeavesNoSample() throws {
        let text = "device,lat,lon,time"
        let preamble = try #require(try Self.read(text))
        #expect(preamble.start >= text.utf8.count)
        #expect(preamble.line == 2)
    }
}
