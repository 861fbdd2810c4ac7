import GeofenceKit

// JSON strings: scanned and validated in place, decoded to `String` only when a caller keeps one.

extension JSONScanner {
    /// Scans a string whose opening quote is next and validates it (escapes, UTF-8, no raw control characters).
    mutating func readStringToken() throws(InputError) -> StringToken {
        guard consume(UInt8(ascii: "\"")) else { throw unexpected(expected: "a string") }
        let start = offset
        var hasEscapes = false
        while true {
            offset = plainTextEnd(from: offset)
            guard offset < bytes.count else { break }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return StringToken(span: start..<(offset - 1), hasEscapes: hasEscapes)
            } else if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try scanEscape()
            } else if byte < 0x20 {
                throw error(
                    byte == UInt8(ascii: "\n")
                        ? "unterminated string (a line break must be written \\n)"
                        : "control character 0x\(String(byte, radix: 16)) in a string must be escaped")
            } else if byte < 0x80 {
                offset += 1
            } else {
                try scanUTF8Sequence()
            }
        }
        throw error("unterminated string")
    }

    /// The offset of the first byte from `start` on that needs a look of its own in a string — a quote, a
    /// backslash, a control character or a non-ASCII byte — or the end of the bytes.
    ///
    /// Eight bytes at a time: keys and names are a few bytes each, so a string usually ends in its first word,
    /// and the word's flags give the quote's place directly.
    @inline(__always)
    func plainTextEnd(from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        let end = bytes.count
        while end &- index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let special = Self.specialStringBytes(word)
            if special != 0 { return index &+ special.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index &+= 1
        }
        return index
    }

    /// High bits flagging the bytes of `word` that are `"`, `\`, below 0x20 or above 0x7F: the lowest flag is
    /// the first such byte (flags above it may be false; see ``EightBytes/zeroBytes(_:)``).
    @inline(__always)
    static func specialStringBytes(_ word: UInt64) -> UInt64 {
        let low: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        // Adding 0x60 to a byte's low seven bits sets its high bit when they are at least 0x20 (no carry leaves
        // the byte).
        let quotes = EightBytes.zeroBytes(word ^ (low &* 0x22))
        let backslashes = EightBytes.zeroBytes(word ^ (low &* 0x5C))
        let controls = ~(((word & ~high) &+ low &* 0x60) | word) & high
        return quotes | backslashes | controls | (word & high)
    }

    /// Scans a string and decodes it.
    mutating func readString() throws(InputError) -> String {
        string(of: try readStringToken())
    }

    /// The text of a scanned string, with escapes decoded.
    func string(of token: StringToken) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[token.span])
        guard token.hasEscapes else { return String(decoding: raw, as: UTF8.self) }
        return Self.decodeEscapes(raw)
    }

    /// Whether a scanned string without escapes equals `literal` (an ASCII key), without building a `String`.
    @inline(__always)
    func token(_ token: StringToken, equals literal: StaticString) -> Bool {
        guard !token.hasEscapes, token.span.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else {
            return false
        }
        let text = base + token.span.lowerBound
        let pointer = literal.utf8Start
        for i in 0..<token.span.count where text[i] != pointer[i] { return false }
        return true
    }

    /// Validates one escape sequence at the current backslash.
    mutating func scanEscape() throws(InputError) {
        let escapeMark = mark
        offset += 1
        guard let byte = peek() else { throw error("unterminated string") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            offset += 1
        case UInt8(ascii: "u"):
            offset += 1
            let unit = try hexQuad(escapeMark)
            if UTF16.isLeadSurrogate(unit) {
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                else { throw InputError("unpaired surrogate in \\u escape", line: escapeMark.line, column: escapeMark.column) }
                offset += 2
                guard UTF16.isTrailSurrogate(try hexQuad(escapeMark)) else {
                    throw InputError("unpaired surrogate in \\u escape", line: escapeMark.line, column: escapeMark.column)
                }
            } else if UTF16.isTrailSurrogate(unit) {
                throw InputError("unpaired surrogate in \\u escape", line: escapeMark.line, column: escapeMark.column)
            }
        default:
            throw InputError(
                "invalid escape '\\\(Character(Unicode.Scalar(byte)))' in a string", line: escapeMark.line,
                column: escapeMark.column)
        }
    }

    mutating func hexQuad(_ escapeMark: Mark) throws(InputError) -> UInt16 {
        guard offset + 4 <= bytes.count else {
            throw InputError("\\u must be followed by four hex digits", line: escapeMark.line, column: escapeMark.column)
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[offset]) else {
                throw InputError(
                    "\\u must be followed by four hex digits", line: escapeMark.line, column: escapeMark.column)
            }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Validates one multi-byte UTF-8 sequence (no overlong forms, surrogates or values past U+10FFFF).
    mutating func scanUTF8Sequence() throws(InputError) {
        let lead = bytes[offset]
        let length: Int
        var lowest: UInt8 = 0x80, highest: UInt8 = 0xBF  // the allowed range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; highest = 0x9F
        case 0xF0: length = 4; lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; highest = 0x8F
        default: throw error("invalid UTF-8 in a string")
        }
        guard offset + length <= bytes.count else { throw error("invalid UTF-8 in a string") }
        guard (lowest...highest).contains(bytes[offset + 1]) else { throw error("invalid UTF-8 in a string") }
        for index in (offset + 2)..<(offset + length) where bytes[index] & 0xC0 != 0x80 {
            throw error("invalid UTF-8 in a string")
        }
        offset += length
        continuationBytes += length - 1
    }

    /// Decodes the escapes of a validated string body.
    static func decodeEscapes(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        func hexQuad(at start: Int) -> UInt32 {
            var value: UInt32 = 0
            for i in start..<min(start + 4, raw.count) { value = value << 4 | UInt32(hexValue(raw[i]) ?? 0) }
            return value
        }
        func appendScalar(_ value: UInt32) {
            // Validated by readStringToken; U+FFFD keeps this total without trusting that.
            UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { output.append($0) }
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
                output.append(byte)
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var unit = hexQuad(at: index)
                index += 4
                if UTF16.isLeadSurrogate(UInt16(truncatingIfNeeded: unit)), index + 6 <= raw.count,
                    raw[index] == UInt8(ascii: "\\")
                {
                    let trail = hexQuad(at: index + 2)
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (trail &- 0xDC00)
                    index += 6
                }
                appendScalar(unit)
            default: output.append(escaped)  // \" \\ \/
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
