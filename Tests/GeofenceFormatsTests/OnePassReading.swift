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
