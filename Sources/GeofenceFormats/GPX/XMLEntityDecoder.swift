#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

/// Replaces XML references in text and attribute values: the five predefined entities and numeric character
/// references.
///
/// No other entity exists for this reader: documents that declare entities (a DOCTYPE internal subset) are
/// refused by ``XMLTokenizer``, so nothing is ever expanded from a declaration and nothing external is fetched.
/// Only the values the GPX reader uses are decoded; text it skips is never looked at.
enum XMLEntityDecoder {
    /// The `;` that ends a reference is at most this many bytes after its `&` (names are at most 12 bytes).
    static let referenceWindow = 13

    /// Appends `raw` to `output` with every reference replaced by its UTF-8 bytes, stopping once `output` holds
    /// more than `limit` bytes.
    ///
    /// Decoding goes strictly left to right, so that the first problem in the text wins, whether it is a bad
    /// reference or the length, and however the text was cut into pieces (references are never cut).
    /// - Returns: `false` when `output` grew past `limit` (the rest is not decoded).
    /// - Throws: ``InputError`` (message only) for an undefined entity, a malformed reference or a bare `&`.
    @discardableResult
    static func decode(_ raw: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], limit: Int = .max)
        throws(InputError) -> Bool
    {
        var index = 0
        while index < raw.count {
            guard output.count <= limit else { return false }
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            var end = index + 1
            while end < raw.count, raw[end] != UInt8(ascii: ";"), end - index < referenceWindow { end += 1 }
            guard end < raw.count, raw[end] == UInt8(ascii: ";") else {
                throw InputError("\"&\" must be written &amp; (or start a reference such as &lt; or &#38;)")
            }
            let name = UnsafeBufferPointer(rebasing: raw[(index + 1)..<end])
            try appendReference(name, to: &output)
            index = end + 1
        }
        return output.count <= limit
    }

    /// Whether `raw` holds a reference to decode (an `&`), so callers can use the bytes as they are otherwise.
    static func needsDecoding(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = raw.baseAddress else { return false }
        return memchr(base, 0x26, raw.count) != nil
    }

    /// Appends the bytes of the reference `&name;`.
    private static func appendReference(_ name: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) throws(InputError) {
        let text = String(decoding: name, as: UTF8.self)
        switch text {
        case "amp": output.append(UInt8(ascii: "&"))
        case "lt": output.append(UInt8(ascii: "<"))
        case "gt": output.append(UInt8(ascii: ">"))
        case "quot": output.append(UInt8(ascii: "\""))
        case "apos": output.append(UInt8(ascii: "'"))
        default:
            guard text.hasPrefix("#") else {
                throw InputError(
                    "undefined entity &\(text); (without a DTD only &amp; &lt; &gt; &quot; &apos; and character references exist)")
            }
            let isHex = text.hasPrefix("#x")
            let digits = text.dropFirst(isHex ? 2 : 1)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && (isHex ? $0.isHexDigit : $0.isNumber) }),
                let value = UInt32(digits, radix: isHex ? 16 : 10), value != 0, let scalar = Unicode.Scalar(value)
            else {
                throw InputError("&\(text); is not a valid character reference")
            }
            output.append(contentsOf: String(Character(scalar)).utf8)
        }
    }
}
