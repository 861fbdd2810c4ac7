import GeofenceKit

/// The character encodings the XML reader accepts, and the transcoding to UTF-8 that lets it read only UTF-8.
///
/// GPX files are UTF-8 in practice; older exporters (OziExplorer, some Garmin tools) declare ISO-8859-1, and
/// a few declare US-ASCII. Everything else (UTF-16, Windows code pages, Shift-JIS…) is refused with a message
/// that says what to do, rather than read as mojibake: a wrong guess would corrupt names silently.

enum XMLEncoding: Sendable, Equatable {
    /// UTF-8, and US-ASCII, which is a subset of it. Bytes are not validated: invalid sequences can only occur
    /// in text the GPX reader ignores or in values that then fail to parse.
    case utf8
    /// ISO-8859-1: every byte is the Unicode scalar of the same value.
    case latin1

    /// The encoding an XML declaration names (`encoding="…"`, compared without regard to case).
    /// - Throws: ``InputError`` naming the unsupported encoding; the caller adds the position.
    init(declaredName name: String) throws(InputError) {
        switch name.lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii", "iso646-us", "ansi_x3.4-1968":
            self = .utf8
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso-latin-1", "latin1", "latin-1", "l1", "iso-ir-100",
            "cp819", "ibm819":
            self = .latin1
        default:
            throw InputError(
                "\"\(name)\" is not supported (UTF-8, US-ASCII and ISO-8859-1 are): save the file as UTF-8",
                field: "encoding")
        }
    }

    /// ISO-8859-1 bytes as UTF-8: bytes from 0x80 become two-byte sequences; ASCII is returned unchanged.
    static func utf8(fromLatin1 bytes: ArraySlice<UInt8>) -> [UInt8] {
        var highBytes = 0
        for byte in bytes where byte >= 0x80 { highBytes += 1 }
        guard highBytes > 0 else { return Array(bytes) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + highBytes)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                output.append(0xC0 | byte >> 6)
                output.append(0x80 | byte & 0x3F)
            }
        }
        return output
    }
}
