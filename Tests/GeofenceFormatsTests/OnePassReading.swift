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
        func describe(_ fields: SampleFields) -> String {
            let sample = fields.sample(in: line)
            return "\(sample.device)|\(sample.coordinate.latitude.bitPattern)|\(sample.coordinate.longitude.bitPattern)|"
                + "\(sample.time.microseconds)|\(sample.accuracy.map { "\($0.bitPattern)" } ?? "-")"
        }
        let generalReading: String
        do throws(SampleDecodingError) {
            generalReading = describe(try general(line))
        } catch {
            generalReading = "\(error.reason): \(error.error.message)"
        }
        return (plain(line).map(describe), generalReading)
    }
}
