import Testing

@testable import GeofenceFormats
import GeofenceKit

/// A block decodes exactly as its lines do one by one through ``SampleDecoder``: the same samples, the same
/// rejections with the same lines, columns and messages, in line order.
@Suite struct SampleBlockDecoderTests {
    /// `count` lines of which every seventh is malformed, every eleventh blank, every thirteenth out of range, and
    /// some name their device with escapes or doubled quotes, some end in a carriage return, one is too long.
    private func text(_ count: Int, csv: Bool) -> String {
        var text = ""
        for k in 0..<count {
            let latitude = k % 13 == 0 ? "95.5" : "25.0\(k)12345678901"
            let device = k % 5 == 0 ? (csv ? "\"dev \"\"\(k % 50)\"\"\"" : #""dev \"\#(k % 50)\"""#) : (csv ? "dev-\(k % 50)" : "\"dev-\(k % 50)\"")
            let ending = k % 3 == 0 ? "\r\n" : "\n"
            if k % 11 == 0 {
                text += "   " + ending
            } else if k == 500 {
                text += String(repeating: "z", count: 200) + ending
            } else if k % 7 == 0 {
                text += csv ? "dev-\(k),\"unterminated" + ending : "{\"device\":\"dev-\(k)\"," + ending
            } else if csv {
                text += "\(device),\(latitude),121.5,\(1_795_248_000 + k)" + (k % 4 == 0 ? ",3.5" : "") + ending
            } else {
                text += #"{"device":\#(device),"lat":\#(latitude),"lon":121.5,"time":\#(1_795_248_000 + k)"#
                    + (k % 4 == 0 ? #","accuracy":3.5}"# : "}") + ending
            }
        }
        return text
    }

    /// Each line as the decoder alone reads it: its sample or its rejection; blank lines are left out.
    private func oneByOne(_ text: String, header: CSVSampleHeader?, firstLine: Int, maxLineLength: Int) -> [String] {
        var results: [String] = []
        // Split as bytes: "\r\n" is one `Character`.
        let lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (k, line) in lines.enumerated() {
            var bytes = Array(line)
            if k == lines.count - 1, bytes.isEmpty { break }
            let number = firstLine + k
            guard bytes.count <= maxLineLength else {
                results.append("lineTooLong \(number) 0 line is longer than \(maxLineLength) bytes")
                continue
            }
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            if SampleDecoder.isBlank(bytes[...]) { continue }
            do {
                let sample =
                    if let header {
                        try SampleDecoder.decodeCSV(line: bytes[...], header: header, lineNumber: number)
                    } else {
                        try SampleDecoder.decodeNDJSON(line: bytes[...], lineNumber: number)
                    }
                results.append(describe(sample, line: number))
            } catch {
                results.append("\(error.reason) \(error.error.line ?? 0) \(error.error.column ?? 0) \(error.error.message)")
            }
        }
        return results
    }

    private func describe(_ sample: LocationSample, line: Int) -> String {
        "\(line) \(sample.device) \(sample.coordinate.latitude) \(sample.coordinate.longitude) "
            + "\(sample.time.microseconds) \(sample.accuracy.map { "\($0)" } ?? "-")"
    }

    /// The block's samples and rejections merged back into line order, described as ``oneByOne`` describes them.
    private func describe(_ block: DecodedSampleBlock) -> [String] {
        var results: [String] = []
        var rejections = block.rejections[...]
        for index in 0..<block.count {
            while let rejection = rejections.first, rejection.samplesBefore <= index {
                results.append(describe(rejection.error))
                rejections.removeFirst()
            }
            let sample = block.sample(index)
            results.append(describe(sample, line: block.samples[index].lineNumber))
            // The hash is the name's, wherever the name is kept.
            let hash = Array(sample.device.utf8).withUnsafeBufferPointer { DeviceNameHash.hash($0, seed: DeviceNameHash.seed) }
            #expect(block.samples[index].nameHash == hash)
        }
        return results + rejections.map { describe($0.error) }
    }

    private func describe(_ error: SampleDecodingError) -> String {
        "\(error.reason) \(error.error.line ?? 0) \(error.error.column ?? 0) \(error.error.message)"
    }

    @Test(arguments: [false, true])
    func aBlockDecodesAsItsLinesDoOneByOne(csv: Bool) throws {
        let header = try CSVSampleHeader("device,lat,lon,time,accuracy")
        let text = text(2_000, csv: csv)
        let block = SampleBlockDecoder.decode(
            Array(text.utf8), firstLine: 41, as: csv ? .csv(header) : .ndjson, maxLineLength: 120)
        let expected = oneByOne(text, header: csv ? header : nil, firstLine: 41, maxLineLength: 120)
        let decoded = describe(block)
        let firstDifference = zip(decoded, expected).first { $0 != $1 }
        #expect(decoded.count == expected.count)
        #expect(firstDifference == nil, "\(String(describing: firstDifference))")
        #expect(block.rejections.count > 250)
        #expect(block.rejections.contains { $0.error.reason == .lineTooLong })
        #expect((0..<block.count).contains { block.name(of: $0).contains("\"") })
    }

    /// The same with the header that ``OrderedCSVRow`` reads straight (its rows with an accuracy are malformed here).
    /// At 42 bytes, valid rows are too long too.
    @Test(arguments: [120, 42])
    func aBlockOfDeviceLatLonTimeRowsDecodesAsItsLinesDoOneByOne(maxLineLength: Int) throws {
        let header = try CSVSampleHeader("device,lat,lon,time")
        let text = text(2_000, csv: true)
        let block = SampleBlockDecoder.decode(
            Array(text.utf8), firstLine: 41, as: .csv(header), maxLineLength: maxLineLength)
        let expected = oneByOne(text, header: header, firstLine: 41, maxLineLength: maxLineLength)
        let decoded = describe(block)
        let firstDifference = zip(decoded, expected).first { $0 != $1 }
        #expect(decoded.count == expected.count)
        #expect(firstDifference == nil, "\(String(describing: firstDifference))")
        #expect(block.count > 300)
        #expect(block.rejections.contains { $0.error.reason == .lineTooLong })
    }

    /// A block decoded into a finished block's recycled samples (which still hold that block's values) is the block
    /// decoded afresh.
    @Test(arguments: [false, true])
    func aBlockDecodesIntoRecycledSamplesAsIntoFreshOnes(csv: Bool) throws {
        let header = try CSVSampleHeader("device,lat,lon,time,accuracy")
        let format: SampleBlockDecoder.Format = csv ? .csv(header) : .ndjson
        let buffers = SampleBufferPool()
        let first = Array(text(2_000, csv: csv).utf8)
        let second = Array(text(500, csv: csv).utf8)
        buffers.recycle(SampleBlockDecoder.decode(first, firstLine: 1, as: format, maxLineLength: 120))
        let recycled = SampleBlockDecoder.decode(second, firstLine: 7, as: format, maxLineLength: 120, buffers: buffers)
        let fresh = SampleBlockDecoder.decode(second, firstLine: 7, as: format, maxLineLength: 120)
        #expect(describe(recycled) == describe(fresh))
    }

    @Test func decodingFromAnOffsetKeepsTheLinesNumbers() throws {
        let header = try CSVSampleHeader("device,lat,lon,time")
        let text = "device,lat,lon,time\na,25.5,121.5,1795248000\nb,95,121.5,1795248000\n"
        let block = SampleBlockDecoder.decode(
            Array(text.utf8), from: 20, firstLine: 2, as: .csv(header), maxLineLength: 100)
        #expect(block.count == 1)
        #expect(block.samples.map(\.lineNumber) == [2])
        #expect(block.rejections.map { $0.error.error.line } == [3])
        #expect(block.rejections.first?.samplesBefore == 1)
    }
}
