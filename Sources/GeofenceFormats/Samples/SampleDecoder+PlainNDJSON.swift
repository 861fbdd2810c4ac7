import GeofenceKit

extension SampleDecoder {
    /// An NDJSON line of the common shape read in one pass, or `nil` for the general reader (``ndjsonFields``) to
    /// read.
    ///
    /// The common shape: one object with no whitespace, whose keys are the sample's own (`device`, `lat`, `lon`,
    /// `time`, `accuracy`; each once, without escapes); a device named by a string of printable ASCII without
    /// escapes; numbers that ``PlainDecimalParser`` reads; a time as an ISO-8601 string or a number of Unix seconds;
    /// valid values. The general reader scans the object into tokens with their positions for its messages, then
    /// converts them; here each value is read where it starts. Anything else — whitespace, another key, `null`, an
    /// escape, a bad value — answers `nil`, and the general reader then decodes the line or names what is wrong with
    /// it, so a line this reads gives exactly the fields the general reader gives.
    /// - Parameter line: the line, without its line feed and carriage return.
    static func plainNDJSONFields(line: UnsafeBufferPointer<UInt8>) -> SampleFields? {
        let count = line.count
        guard count > 2, line[0] == UInt8(ascii: "{") else { return nil }
        var device = 0..<0
        var latitude = 0.0
        var longitude = 0.0
        var time: Timestamp?
        var accuracy: Double?
        var seen: UInt8 = 0
        var offset = 1
        while true {
            guard line[offset] == UInt8(ascii: "\""), let (key, valueStart) = plainKey(line, from: offset + 1) else {
                return nil
            }
            let bit: UInt8 = 1 << UInt8(key.rawValue)
            guard seen & bit == 0 else { return nil }
            seen |= bit
            offset = valueStart
            guard offset < count else { return nil }
            let end: Int
            switch key {
            case .device:
                guard line[offset] == UInt8(ascii: "\""), let nameEnd = plainStringEnd(line, from: offset + 1),
                    nameEnd > offset + 1
                else { return nil }
                device = offset + 1..<nameEnd
                end = nameEnd + 1
            case .latitude, .longitude:
                guard let (value, numberEnd, _) = PlainDecimalParser.parse(line, from: offset) else { return nil }
                if key == .latitude { latitude = value } else { longitude = value }
                end = numberEnd
            case .accuracy:
                guard let (value, numberEnd, _) = PlainDecimalParser.parse(line, from: offset), value >= 0 else {
                    return nil
                }
                accuracy = value
                end = numberEnd
            case .time:
                if line[offset] == UInt8(ascii: "\"") {
                    guard let textEnd = plainStringEnd(line, from: offset + 1),
                        let value = try? Timestamp.parseISO8601(UnsafeBufferPointer(rebasing: line[offset + 1..<textEnd]))
                    else { return nil }
                    time = value
                    end = textEnd + 1
                } else if let (value, secondsEnd) = Timestamp.wholeUnixSeconds(in: line, from: offset),
                    secondsEnd < count, line[secondsEnd] == UInt8(ascii: ",") || line[secondsEnd] == UInt8(ascii: "}")
                {
                    time = value
                    end = secondsEnd
                } else {
                    guard let (_, numberEnd, _) = PlainDecimalParser.parse(line, from: offset),
                        let value = try? Timestamp.parseUnixSeconds(UnsafeBufferPointer(rebasing: line[offset..<numberEnd]))
                    else { return nil }
                    time = value
                    end = numberEnd
                }
            }
            // A comma and the next key, or the closing brace at the end of the line.
            guard end < count else { return nil }
            if line[end] == UInt8(ascii: ",") {
                offset = end + 1
                guard offset < count else { return nil }
                continue
            }
            guard line[end] == UInt8(ascii: "}"), end + 1 == count else { return nil }
            break
        }
        guard seen & 0b1111 == 0b1111, let time,
            let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
        else { return nil }
        return SampleFields(device: .span(device), coordinate: coordinate, time: time, accuracy: accuracy)
    }

    /// Where the string whose text starts at `start` ends (its closing quote), when its text is printable ASCII
    /// without escapes; `nil` otherwise (the general reader decodes escapes and checks UTF-8).
    static func plainStringEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        if let base = line.baseAddress.map(UnsafeRawPointer.init) {
            while index + 8 <= line.count {
                let special = JSONScanner.specialStringBytes(
                    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                if special != 0 {
                    index += special.trailingZeroBitCount / 8
                    return line[index] == UInt8(ascii: "\"") ? index : nil
                }
                index += 8
            }
        }
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") { return index }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }
}

extension SampleDecoder {
    /// The sample's key whose text starts at `start` (after its opening quote), spelled exactly (no escapes), and
    /// where its value starts (after `":`); `nil` for any other key. The key's bytes are compared as one word.
    @inline(__always)
    private static func plainKey(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> (NDJSONFields.Key, Int)? {
        guard start + 8 <= line.count, let base = line.baseAddress.map(UnsafeRawPointer.init) else { return nil }
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        // The key ends at its first special byte, which must be the closing quote; "accuracy" fills the word.
        let special = JSONScanner.specialStringBytes(word)
        let length = special == 0 ? 8 : special.trailingZeroBitCount / 8
        guard start + length + 1 < line.count, line[start + length] == UInt8(ascii: "\""),
            line[start + length + 1] == UInt8(ascii: ":")
        else { return nil }
        let key: NDJSONFields.Key
        switch length == 8 ? word : word & ((1 << UInt64(8 * length)) - 1) {
        case PlainKeyWord.device: key = .device
        case PlainKeyWord.latitude: key = .latitude
        case PlainKeyWord.longitude: key = .longitude
        case PlainKeyWord.time: key = .time
        case PlainKeyWord.accuracy: key = .accuracy
        default: return nil
        }
        return (key, start + length + 2)
    }
}

/// The sample's keys as the little-endian words of their bytes (the first byte the lowest), for
/// ``SampleDecoder/plainKey(_:from:)`` to compare a key in one step (``PlainNDJSONLineTests`` checks the words
/// against the names).
enum PlainKeyWord {
    static let device: UInt64 = 0x6563_6976_6564  // "device"
    static let latitude: UInt64 = 0x74_616C  // "lat"
    static let longitude: UInt64 = 0x6E_6F6C  // "lon"
    static let time: UInt64 = 0x656D_6974  // "time"
    static let accuracy: UInt64 = 0x7963_6172_7563_6361  // "accuracy"
}
