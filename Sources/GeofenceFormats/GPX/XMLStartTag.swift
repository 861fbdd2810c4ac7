#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

/// A start tag as ``XMLTokenizer`` hands it to its handler: a view of the tag's bytes, valid only during the call.
///
/// Names keep their prefix (`gpxtpx:hr`); GPX readers look at the local name, after the colon. Attribute values
/// are raw: references in them are decoded by the caller when it uses a value (``XMLEntityDecoder``).
struct XMLStartTag {
    /// An attribute, as offsets into ``XMLStartTag/bytes``.
    struct Attribute: Sendable {
        var name: Range<Int>
        var localNameStart: Int
        var value: Range<Int>
    }

    /// The tag from `<` through `>`.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The qualified name, as offsets into ``bytes``.
    let name: Range<Int>
    /// Where the local name starts: after the first colon, else at the name's start.
    let localNameStart: Int
    /// A view of the tokenizer's storage, like ``bytes``.
    let attributes: UnsafeBufferPointer<Attribute>
    /// The position of the `<`.
    let line: Int
    let column: Int

    var qualifiedName: String { String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self) }

    var localName: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[localNameStart..<name.upperBound]) }

    /// The first attribute whose local name is `localName`.
    func attribute(named localName: StaticString) -> Attribute? {
        guard let base = bytes.baseAddress else { return nil }
        let length = localName.utf8CodeUnitCount
        var index = 0
        while index < attributes.count {
            let attribute = attributes[index]
            if attribute.name.upperBound - attribute.localNameStart == length,
                XMLTokenizer.equalBytes(base + attribute.localNameStart, localName.utf8Start, count: length)
            {
                return attribute
            }
            index += 1
        }
        return nil
    }

    /// The attribute's value as written, references not decoded.
    func rawValue(of attribute: Attribute) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[attribute.value])
    }

    /// The attribute's value with references decoded, as a string.
    func stringValue(of attribute: Attribute) throws(InputError) -> String {
        let raw = rawValue(of: attribute)
        guard XMLEntityDecoder.needsDecoding(raw) else { return String(decoding: raw, as: UTF8.self) }
        var decoded: [UInt8] = []
        do {
            try XMLEntityDecoder.decode(raw, into: &decoded)
        } catch {
            let (line, column) = position(of: attribute)
            throw InputError(error.message, line: line, column: column, field: attributeName(attribute))
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    func attributeName(_ attribute: Attribute) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[attribute.name]), as: UTF8.self)
    }

    /// The line and column of the attribute's name, which may be on a later line than the tag's `<`.
    func position(of attribute: Attribute) -> (line: Int, column: Int) {
        var line = self.line
        var column = self.column
        for index in 0..<attribute.name.lowerBound {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// Whether `bytes` spell `text` exactly.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return true }
        return XMLTokenizer.equalBytes(base, text.utf8Start, count: bytes.count)
    }
}
