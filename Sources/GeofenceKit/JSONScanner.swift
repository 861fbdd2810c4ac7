/// A byte-level JSON tokenizer that knows the line and column of every token.
///
/// It is the shared bottom layer of the JSON readers: ``JSONParser`` builds trees with it, and the sample decoder
/// scans flat objects with it directly, allocating nothing but the strings it keeps. It follows RFC 8259 strictly
/// (no comments, no trailing commas, no `NaN`), checks that strings are valid UTF-8 and skips one leading UTF-8
/// byte order mark.
///
/// Columns count Unicode scalars from 1, as editors do. Outside strings JSON is ASCII and strings cannot span
/// lines, so the scanner keeps the column exact by counting the UTF-8 continuation bytes it meets in strings on
/// the current line, instead of rescanning the line when an error occurs.
///
/// The scanner holds an `UnsafeBufferPointer`: create and use it inside the `withUnsafeBufferPointer` call that
/// provides the bytes. Nothing it returns points into them.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the next byte to read.
    private(set) var offset: Int
    /// The 1-based line of ``offset``.
    private(set) var line: Int
    /// The offset where the current line starts.
    private var lineStart: Int
    /// UTF-8 continuation bytes between ``lineStart`` and ``offset``, so the column counts scalars, not bytes.
    private var continuationBytes = 0

    /// The position of a token, for values that report errors after scanning has moved on.
    struct Mark {
        var offset: Int
        var line: Int
        var column: Int
    }

    /// A scanned string: its bytes between the quotes, and whether they contain escapes to decode.
    struct StringToken {
        var span: Range<Int>
        var hasEscapes: Bool
    }

    /// A scanned number: the span of its text and its nearest `Double` (±infinity when it overflows).
    struct NumberToken {
        var span: Range<Int>
        var value: Double
        /// Whether the text has neither a fraction nor an exponent.
        var isIntegerText: Bool
    }

    /// Starts at the beginning of `bytes`, after a UTF-8 byte order mark if there is one.
    /// - Parameter firstLine: the line number of the first byte, for callers that scan one line of a file.
    init(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int = 1) {
        self.bytes = bytes
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        self.offset = hasBOM ? 3 : 0
        self.lineStart = self.offset
        self.line = firstLine
    }

    var isAtEnd: Bool { offset >= bytes.count }

    /// The 1-based column of ``offset`` in Unicode scalars.
    var column: Int { offset - lineStart - continuationBytes + 1 }

    var mark: Mark { Mark(offset: offset, line: line, column: column) }

    /// The next byte without consuming it; `nil` at the end.
    @inline(__always)
    func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// Skips spaces, tabs, carriage returns and line feeds, counting lines.
    @inline(__always)
    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                offset += 1
            case UInt8(ascii: "\n"):
                offset += 1
                line += 1
                lineStart = offset
                continuationBytes = 0
            default:
                return
            }
        }
    }

    /// Consumes `byte` when it is next.
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// Consumes `byte` or throws "expected `description`".
    mutating func expect(_ byte: UInt8, _ description: String) throws(InputError) {
        guard consume(byte) else { throw unexpected(expected: description) }
    }

    /// An error at the current position.
    func error(_ message: String) -> InputError {
        InputError(message, line: line, column: column)
    }

    /// "expected X, found Y" at the current position, naming what is there in a way a person can find it.
    func unexpected(expected: String) -> InputError {
        guard let byte = peek() else { return error("expected \(expected), found the end of the input") }
        let found: String
        switch byte {
        case UInt8(ascii: "\""): found = "a string"
        case UInt8(ascii: "{"): found = "'{'"
        case 0x21...0x7E: found = "'\(Character(Unicode.Scalar(byte)))'"
        case 0x80...: found = "a non-ASCII character"
        default: found = "a control character (0x\(String(byte, radix: 16)))"
        }
        return error("expected \(expected), found \(found)")
    }

    // MARK: Strings

    /// Scans a string whose opening quote is next and validates it (escapes, UTF-8, no raw control characters).
    mutating func readStringToken() throws(InputError) -> StringToken {
        try expect(UInt8(ascii: "\""), "a string")
        let start = offset
        var hasEscapes = false
        while offset < bytes.count {
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
        guard !token.hasEscapes, token.span.count == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        var i = 0
        for index in token.span {
            guard bytes[index] == pointer[i] else { return false }
            i += 1
        }
        return true
    }

    /// Validates one escape sequence at the current backslash.
    private mutating func scanEscape() throws(InputError) {
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

    private mutating func hexQuad(_ escapeMark: Mark) throws(InputError) -> UInt16 {
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

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Validates one multi-byte UTF-8 sequence (no overlong forms, surrogates or values past U+10FFFF).
    private mutating func scanUTF8Sequence() throws(InputError) {
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
    private static func decodeEscapes(_ raw: UnsafeBufferPointer<UInt8>) -> String {
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

    // MARK: Numbers

    /// Scans a number per RFC 8259 and converts it to the nearest `Double`.
    ///
    /// Numbers with at most 15 significant digits and a small exponent (every GPS coordinate) are converted
    /// exactly with one multiplication or division (Clinger's fast path); others go through the standard
    /// library's correctly rounded parser. Values beyond `Double` become ±infinity; callers decide.
    mutating func readNumber() throws(InputError) -> NumberToken {
        let start = offset
        let startMark = mark
        let negative = consume(UInt8(ascii: "-"))
        guard let first = peek(), first &- UInt8(ascii: "0") < 10 else {
            throw unexpected(expected: "a digit").withNonFiniteHint(spelled: spellsNonFinite)
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var decimalExponent = 0
        var isInteger = true
        if first == UInt8(ascii: "0") {
            offset += 1
            if let next = peek(), next &- UInt8(ascii: "0") < 10 {
                throw InputError("numbers must not have leading zeros", line: startMark.line, column: startMark.column)
            }
        } else {
            while let byte = peek(), byte &- UInt8(ascii: "0") < 10 {
                Self.accumulate(byte, into: &mantissa, &significantDigits, &decimalExponent, isFraction: false)
                offset += 1
            }
        }
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard let byte = peek(), byte &- UInt8(ascii: "0") < 10 else {
                throw unexpected(expected: "a digit after the decimal point")
            }
            while let byte = peek(), byte &- UInt8(ascii: "0") < 10 {
                Self.accumulate(byte, into: &mantissa, &significantDigits, &decimalExponent, isFraction: true)
                offset += 1
            }
        }
        if let byte = peek(), byte | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            offset += 1
            var exponentNegative = false
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                offset += 1
            }
            guard let digit = peek(), digit &- UInt8(ascii: "0") < 10 else {
                throw unexpected(expected: "a digit in the exponent")
            }
            var exponent = 0
            while let byte = peek(), byte &- UInt8(ascii: "0") < 10 {
                exponent = min(exponent * 10 + Int(byte &- UInt8(ascii: "0")), 100_000)
                offset += 1
            }
            decimalExponent += exponentNegative ? -exponent : exponent
        }
        let span = start..<offset
        var value: Double
        if mantissa == 0 {
            value = 0
        } else if significantDigits <= 15, (-22...22).contains(decimalExponent) {
            value = Double(mantissa)
            value = decimalExponent < 0 ? value / Self.powersOfTen[-decimalExponent]
                : value * Self.powersOfTen[decimalExponent]
        } else {
            value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self))
                ?? (negative ? -.infinity : .infinity)
            return NumberToken(span: span, value: value, isIntegerText: isInteger)
        }
        return NumberToken(span: span, value: negative ? -value : value, isIntegerText: isInteger)
    }

    /// Adds one digit to the mantissa, keeping at most 19 (the rest only shift the exponent and force the slow
    /// path, which rereads the text).
    @inline(__always)
    private static func accumulate(
        _ byte: UInt8, into mantissa: inout UInt64, _ significantDigits: inout Int, _ exponent: inout Int,
        isFraction: Bool
    ) {
        let digit = UInt64(byte &- UInt8(ascii: "0"))
        if mantissa == 0 && digit == 0 {
            if isFraction { exponent -= 1 }
            return
        }
        if significantDigits < 19 {
            mantissa = mantissa * 10 + digit
            if isFraction { exponent -= 1 }
        } else if !isFraction {
            exponent += 1
        }
        significantDigits += 1
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The text of a scanned span, for error messages and raw number text.
    func text(of span: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self)
    }

    // MARK: Literals and skipping

    /// Consumes `true`, `false` or `null` and returns it as `Bool?` (`nil` for `null`).
    mutating func readLiteral() throws(InputError) -> Bool? {
        if consumeWord("true") { return true }
        if consumeWord("false") { return false }
        if consumeWord("null") { return nil }
        throw unexpected(expected: "a value").withNonFiniteHint(spelled: spellsNonFinite)
    }

    /// Whether the text at the current position spells NaN or Infinity (in any case), which JSON cannot express.
    private var spellsNonFinite: Bool {
        for word: StaticString in ["nan", "inf"] {
            let count = word.utf8CodeUnitCount
            guard offset + count <= bytes.count else { continue }
            if (0..<count).allSatisfy({ bytes[offset + $0] | 0x20 == word.utf8Start[$0] }) { return true }
        }
        return false
    }

    private mutating func consumeWord(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let pointer = word.utf8Start
        for i in 0..<count where bytes[offset + i] != pointer[i] { return false }
        // `nullx` is not `null` followed by garbage the caller would report less clearly.
        if offset + count < bytes.count, Self.isIdentifierByte(bytes[offset + count]) { return false }
        offset += count
        return true
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_")
    }

    /// Scans and validates one value of any kind without keeping it.
    /// - Parameter depth: the nesting levels still allowed; deeper input is an error rather than a stack overflow.
    mutating func skipValue(depth: Int) throws(InputError) {
        skipWhitespace()
        switch peek() ?? 0 {
        case UInt8(ascii: "\""):
            _ = try readStringToken()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try readNumber()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth > 0 else { throw error("nesting is deeper than \(JSONParser.defaultMaximumDepth) levels") }
            let isObject = peek() == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            offset += 1
            skipWhitespace()
            if consume(close) { return }
            repeat {
                if isObject {
                    skipWhitespace()
                    _ = try readStringToken()
                    skipWhitespace()
                    try expect(UInt8(ascii: ":"), "':'")
                }
                try skipValue(depth: depth - 1)
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            try expect(close, isObject ? "',' or '}'" : "',' or ']'")
        default:
            _ = try readLiteral()
        }
    }
}

extension InputError {
    /// The error, explaining that JSON has no NaN or Infinity when the offending text spells one.
    fileprivate func withNonFiniteHint(spelled: Bool) -> InputError {
        guard spelled else { return self }
        var copy = self
        copy.message += " (NaN and Infinity are not JSON numbers)"
        return copy
    }
}
