import GeofenceKit

/// A valid sample line's values before they become a ``LocationSample``: the device still as the line's bytes.
///
/// A stream of a million lines names the same ten thousand devices again and again; keeping the name as a span
/// of the line lets the block decoder hash it and the router look it up without building a `String` per line.
struct SampleFields {
    /// Where the device's name is.
    enum Device {
        /// Bytes of the line, valid UTF-8, exactly the name's.
        case span(Range<Int>)
        /// A name that differs from the line's bytes (JSON escapes, CSV doubled quotes): decoded.
        case text(String)
    }

    var device: Device
    var coordinate: Coordinate
    var time: Timestamp
    var accuracy: Double?

    /// The sample, its device's name read from `line` (the bytes the fields were decoded from).
    func sample(in line: UnsafeBufferPointer<UInt8>) -> LocationSample {
        let name: String
        switch device {
        case .span(let span): name = String(decoding: UnsafeBufferPointer(rebasing: line[span]), as: UTF8.self)
        case .text(let text): name = text
        }
        return LocationSample(device: name, coordinate: coordinate, time: time, accuracy: accuracy)
    }
}
