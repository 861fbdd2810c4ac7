import GeofenceKit

/// An NDJSON line `{"device":"…","lat":…,"lon":…,"time":…}` — the keys in the order feeds and `--write-files`
/// write them, no whitespace — read straight from a block's bytes, line end included: the line's own fast path, for
/// ``SampleBlockDecoder``.
///
/// ``SampleDecoder/plainNDJSONFields(line:)`` reads lines with the sample's keys in any order, but it needs the
/// line's end first (a `memchr` per line), the blank-line test, and a look at every key. Here the keys are expected
/// in their order: each, with its quotes, colon and the comma before it, is compared as one word, and the line feed
/// is found on the way.
///
/// It takes only a device name of printable ASCII without escapes and whole Unix seconds (what such lines hold)
/// and answers `nil` for anything else — another order, an accuracy, whitespace, an ISO time, an escape, a bad
/// value — so that the caller reads the line the general way. Whatever it reads it reads exactly as
/// `plainNDJSONFields` reads the same line cut at its line feed (`OrderedNDJSONLineTests` compares them).
enum OrderedNDJSONLine: OrderedLineReader {
    /// The line starting at `start` of `bytes` (a block of whole lines), or `nil` for the general reader.
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> OrderedLine? {
        let count = bytes.count
        // `{"device":"`, the name, `","lat":`.
        guard has(Text.openingAndDevice, length: 8, in: bytes, at: start),
            has(Text.colonAndQuote, length: 3, in: bytes, at: start + 8),
            let nameEnd = SampleDecoder.plainStringEnd(bytes, from: start + 11), nameEnd > start + 11,
            has(Text.latitude, length: 8, in: bytes, at: nameEnd)
        else { return nil }
        // The coordinates, each followed by the next key.
        guard let (latitude, latitudeEnd, _) = PlainDecimalParser.parseInlined(bytes, from: nameEnd + 8),
            has(Text.longitude, length: 7, in: bytes, at: latitudeEnd),
            let (longitude, longitudeEnd, _) = PlainDecimalParser.parseInlined(bytes, from: latitudeEnd + 7),
            has(Text.time, length: 8, in: bytes, at: longitudeEnd)
        else { return nil }
        // Whole Unix seconds, the closing brace, then the line's end: a line feed, a carriage return and a line
        // feed, or the end.
        guard let (time, timeEnd) = Timestamp.wholeUnixSeconds(in: bytes, from: longitudeEnd + 8),
            timeEnd < count, bytes[timeEnd] == UInt8(ascii: "}")
        else { return nil }
        var lineEnd = timeEnd + 1
        if lineEnd < count, bytes[lineEnd] == UInt8(ascii: "\r") { lineEnd += 1 }
        guard lineEnd == count || bytes[lineEnd] == UInt8(ascii: "\n") else { return nil }
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else { return nil }
        return OrderedLine(
            name: start + 11..<nameEnd, latitude: latitude, longitude: longitude, time: time.microseconds,
            lineEnd: lineEnd)
    }

    /// Whether the `length` bytes at `offset` are those of `text` (the little-endian word of its bytes, the first
    /// byte the lowest); there must be eight bytes to load there, else the answer is no.
    @inline(__always)
    private static func has(_ text: UInt64, length: Int, in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset + 8 <= bytes.count, let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return false }
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        let mask: UInt64 = length == 8 ? ~0 : (1 << UInt64(8 * length)) - 1
        return word & mask == text
    }

    /// The fixed texts between the values, as the little-endian words of their bytes (``OrderedNDJSONLineTests``
    /// checks them against the texts).
    enum Text {
        /// `{"device`
        static let openingAndDevice: UInt64 = 0x6563_6976_6564_227B
        /// `":"`
        static let colonAndQuote: UInt64 = 0x22_3A22
        /// `","lat":`
        static let latitude: UInt64 = 0x3A22_7461_6C22_2C22
        /// `,"lon":`
        static let longitude: UInt64 = 0x3A_226E_6F6C_222C
        /// `,"time":`
        static let time: UInt64 = 0x3A22_656D_6974_222C
    }
}
