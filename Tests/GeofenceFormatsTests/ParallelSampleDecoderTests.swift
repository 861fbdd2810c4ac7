import Testing

@testable import GeofenceFormats
import GeofenceKit

/// Decoding a chunk's lines in parallel parts gives what decoding them one by one gives, in line order.
@Suite struct ParallelSampleDecoderTests {
    /// `count` lines of which every seventh is malformed, every eleventh blank and every thirteenth out of range.
    private func lines(_ count: Int, csv: Bool) -> [LineSplitter.Piece] {
        var text = csv ? "" : ""
        for k in 0..<count {
            let latitude = k % 13 == 0 ? "95.5" : "25.\(k)"
            if k % 11 == 0 {
                text += "   \n"
            } else if k % 7 == 0 {
                text += csv ? "dev-\(k),\"unterminated\n" : "{\"device\":\"dev-\(k)\",\n"
            } else if csv {
                text += "dev-\(k),\(latitude),121.5,\(1_795_248_000 + k)\n"
            } else {
                text += #"{"device":"dev-\#(k)","lat":\#(latitude),"lon":121.5,"time":\#(1_795_248_000 + k)}"# + "\n"
            }
        }
        var splitter = LineSplitter(maxLineLength: 80)
        return splitter.lines(in: Array(text.utf8)) + [.tooLong(number: count + 1)]
    }

    /// One result per line, as text: the sample's fields, the rejection's reason and line, or `skipped`.
    private func describe(_ decoded: ParallelSampleDecoder.DecodedLines) -> [String] {
        decoded.map {
            switch $0 {
            case .sample(let sample):
                "\(sample.device) \(sample.coordinate.latitude) \(sample.coordinate.longitude) \(sample.time.microseconds)"
            case .rejected(let error): "\(error.reason) \(error.error.line ?? 0) \(error.error.column ?? 0)"
            case .skipped: "skipped"
            }
        }
    }

    @Test(arguments: [false, true])
    func partsDecodeAsOneSequentialPassDoes(csv: Bool) throws {
        let pieces = lines(5_000, csv: csv)
        let header = try CSVSampleHeader("device,lat,lon,time")
        let format: ParallelSampleDecoder.Format = csv ? .csv(header) : .ndjson
        let sequential = ParallelSampleDecoder(parts: 1).decode(pieces[...], as: format)
        let parallel = ParallelSampleDecoder(parts: 4, minimumLinesPerPart: 100).decode(pieces[...], as: format)
        #expect(parallel.count == pieces.count)
        #expect(describe(parallel) == describe(sequential))
        let rejected = describe(parallel).filter { !$0.hasPrefix("dev-") && $0 != "skipped" }
        #expect(rejected.count > 500)
        #expect(describe(parallel).last == "skipped")
        // A slice that starts mid-chunk keeps its lines' numbers.
        let tail = ParallelSampleDecoder(parts: 3, minimumLinesPerPart: 10).decode(pieces[4_000...], as: format)
        #expect(describe(tail) == Array(describe(sequential)[4_000...]))
    }
}
