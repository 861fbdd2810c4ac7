@testable import GeofenceFormats

/// What a one-pass sample reader (``SampleDecoder/plainCSVFields(line:header:)``,
/// ``SampleDecoder/plainNDJSONFields(line:)``) and the general reader it stands in for make of one line, each as
/// text that two equal readings share bit for bit: the sample's device, coordinates, time and accuracy, or the
/// general reader's rejection (`nil` for the one-pass reader's "not mine").
func onePassReading(
    of text: String, plain: (UnsafeBufferPointer<UInt8>) -> SampleFields?,
    general: (UnsafeBufferPointer<UInt8>) throws(SampleDecodingError) -> SampleFields
) -> (plain: String?, general: String) {
    [UInt8](text.utf8).withUnsafeBufferPointer { line in
        let generalReading: String
        do throws(SampleDecodingError) {
            generalReading = bitwiseText(of: try general(line), in: line)
        } catch {
            generalReading = "\(error.reason): \(error.error.message)"
        }
        return (plain(line).map { bitwiseText(of: $0, in: line) }, generalReading)
    }
}

/// The sample `fields` read from `line` as text that two equal readings share bit for bit: its device,
/// coordinates, time and accuracy.
func bitwiseText(of fields: SampleFields, in line: UnsafeBufferPointer<UInt8>) -> String {
    let sample = fields.sample(in: line)
    return "\(sample.device)|\(sample.coordinate.latitude.bitPattern)|\(sample.coordinate.longitude.bitPattern)|"
        + "\(sample.time.microseconds)|\(sample.accuracy.map { "\($0.bitPattern)" } ?? "-")"
}

/// Every line of `bytes` (one block) that the ordered reader `Reader` reads, compared with what the one-pass reader
/// `plain` makes of the line alone (its carriage return left out): how many lines `Reader` read, and the text of
/// those it read otherwise or ended elsewhere than at their line feed.
func orderedReadings<Reader: OrderedLineReader>(
    of bytes: [UInt8], by reader: Reader.Type, plain: (UnsafeBufferPointer<UInt8>) -> SampleFields?
) -> (orderedCount: Int, differing: [String]) {
    var orderedCount = 0
    var differing: [String] = []
    bytes.withUnsafeBufferPointer { block in
        var lineStart = 0
        while lineStart < block.count {
            let lineFeed = block[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? block.count
            var lineEnd = lineFeed
            if lineEnd > lineStart, block[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            let line = UnsafeBufferPointer(rebasing: block[lineStart..<lineEnd])
            if let row = Reader.read(block, from: lineStart) {
                orderedCount += 1
                let name = String(decoding: UnsafeBufferPointer(rebasing: block[row.name]), as: UTF8.self)
                let ordered = "\(name)|\(row.latitude.bitPattern)|\(row.longitude.bitPattern)|\(row.time)|-"
                if ordered != plain(line).map({ bitwiseText(of: $0, in: line) }) || row.lineEnd != lineFeed {
                    differing.append(String(decoding: line, as: UTF8.self))
                }
            }
            lineStart = lineFeed + 1
        }
    }
    return (orderedCount, differing)
}
