import Foundation
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// Seeded damage to byte strings.
enum Mutator {
    /// Fragments that break parsers: delimiters of every format, NUL, references, and bytes that are not UTF-8.
    static let fragments: [[UInt8]] = [
        "\"", "<", ">", "{", "}", "[", "]", ",", ":", "\\", "&", "/>", "</trkpt>", "<trkpt lat=\"1\" lon=\"2\">",
        "<!DOCTYPE gpx [", "<![CDATA[", "<!--", "<a>", "[{\"a\":", "&#x0;", "&#1114112;", "&amp", "\\u", "\\uD800",
        "NaN", "1e999",
        "-", "\n", "\r", "\r\n", "é", "😀", "\u{FEFF}", "\0", "\t", "=", "'", "?>",
    ].map { Array($0.utf8) } + [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80]]

    /// Bound on a mutated input, so every decode stays cheap.
    static let maximumLength = 1 << 16

    /// Values that replace a number: edge cases of every range check, and other JSON types.
    static let values: [[UInt8]] = [
        "NaN", "1e999", "-1e999", "-0", "0", "1e-400", "-1", "90.0000001", "-180.5", "1000001", "86401",
        "9007199254740993", "18446744073709551616", "99999999999999999999", "0.1e1", "\"x\"", "\"\"", "null",
        "[]", "{}", "true",
    ].map { Array($0.utf8) }

    /// `input` with one mutation applied, or (one time in four) two to four.
    static func mutate(_ input: [UInt8], donors: [[UInt8]], random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        let count = random.next() % 4 == 0 ? 2 + Int(random.next() % 3) : 1
        for _ in 0..<count {
            mutateOnce(&bytes, donors: donors, random: &random)
        }
        return bytes
    }

    static func mutateOnce(_ bytes: inout [UInt8], donors: [[UInt8]], random: inout SplitMix64) {
        func index(_ upper: Int) -> Int { upper <= 0 ? 0 : Int(random.next() % UInt64(upper)) }
        func range(in count: Int, maximum: Int) -> Range<Int> {
            let start = index(count + 1)
            return start..<min(count, start + index(maximum + 1))
        }
        func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
        switch random.next() % 10 {
        case 0 where !bytes.isEmpty:  // flip a bit
            bytes[index(bytes.count)] ^= 1 << UInt8(random.next() % 8)
        case 1 where !bytes.isEmpty:  // a random byte
            bytes[index(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
        case 2:  // truncate
            bytes.removeSubrange(index(bytes.count + 1)...)
        case 3:  // splice a slice of another input in, replacing a slice
            let donor = donors[index(donors.count)]
            let slice = donor[range(in: donor.count, maximum: 200)]
            bytes.replaceSubrange(range(in: bytes.count, maximum: 50), with: slice)
        case 4:  // duplicate a range
            let slice = bytes[range(in: bytes.count, maximum: 300)]
            bytes.insert(contentsOf: Array(slice), at: index(bytes.count + 1))
        case 5:  // delete a range
            bytes.removeSubrange(range(in: bytes.count, maximum: 40))
        case 6:  // change one digit (numbers, times, coordinates)
            let digits = bytes.indices.filter { isDigit(bytes[$0]) }
            if !digits.isEmpty { bytes[digits[index(digits.count)]] = UInt8(ascii: "0") + UInt8(random.next() % 10) }
        case 7:  // replace a whole number with an edge case or a value of another type
            let digits = bytes.indices.filter { isDigit(bytes[$0]) }
            guard !digits.isEmpty else { break }
            var start = digits[index(digits.count)]
            var end = start
            func inNumber(_ byte: UInt8) -> Bool {
                isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte | 0x20 == UInt8(ascii: "e")
                    || byte == UInt8(ascii: "+")
            }
            while start > 0, inNumber(bytes[start - 1]) { start -= 1 }
            while end < bytes.count, inNumber(bytes[end]) { end += 1 }
            bytes.replaceSubrange(start..<end, with: values[index(values.count)])
        case 8:  // a fragment repeated, up to past the nesting limits
            let fragment = fragments[index(fragments.count)]
            let times = [1, 2, 3, 100, 513, 1_001][index(6)]
            let repeated = Array([[UInt8]](repeating: fragment, count: times).joined())
            bytes.insert(contentsOf: repeated, at: index(bytes.count + 1))
        default:  // insert a fragment
            bytes.insert(contentsOf: fragments[index(fragments.count)], at: index(bytes.count + 1))
        }
        if bytes.count > maximumLength { bytes.removeSubrange(maximumLength...) }
    }

    /// The input as a Swift string literal body, for failure messages (cut at 2,000 bytes).
    static func describe(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes.prefix(2_000) {
            switch byte {
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\r"): text += "\\r"
            case UInt8(ascii: "\t"): text += "\\t"
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return "\"" + text + "\"" + (bytes.count > 2_000 ? "… (\(bytes.count) bytes)" : "")
    }
}
