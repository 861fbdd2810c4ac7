import GeofenceKit

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
    var offset: Int
    /// The 1-based line of ``offset``.
    var line: Int
    /// The offset where the current line starts.
    var lineStart: Int
    /// UTF-8 continuation bytes between ``lineStart`` and ``offset``, so the column counts scalars, not bytes.
    var continuationBytes = 0

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
    @inline(__always)
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
}
