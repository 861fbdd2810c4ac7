import GeofenceKit

/// Splits one CSV line into fields (RFC 4180 quoting, on a single line) without allocating.
///
/// Spaces and tabs around a field are trimmed (people write `bus-17, 25.04`); inside quotes everything is kept,
/// and `""` stands for one quote. A quote inside an unquoted field, text after a closing quote, or a quote that
/// never closes makes the line malformed, since guessing would shift every later column.

struct CSVFieldScanner {
    /// One field: its bytes (without the quotes), and whether they contain doubled quotes to undo.
    struct Field {
        var span: Range<Int>
        var hasDoubledQuotes: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var offset: Int
    private var finished = false

    init(_ bytes: UnsafeBufferPointer<UInt8>, startingAt offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The next field, `nil` after the last one; throws a message and the offset where the problem is.
    mutating func next() throws(CSVSyntaxError) -> Field? {
        guard !finished else { return nil }
        skipBlanks()
        let field: Field
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") {
            field = try quotedField()
        } else {
            let start = offset
            offset = EightBytes.firstIndex(of: UInt8(ascii: ","), or: UInt8(ascii: "\""), in: bytes, from: offset)
            guard offset == bytes.count || bytes[offset] == UInt8(ascii: ",") else {
                throw CSVSyntaxError(
                    message: "a quote inside an unquoted field (quote the whole field and double the quote)",
                    offset: offset)
            }
            var end = offset
            while end > start, Self.isBlank(bytes[end - 1]) { end -= 1 }
            field = Field(span: start..<end, hasDoubledQuotes: false)
        }
        if offset < bytes.count {  // at a comma
            offset += 1
        } else {
            finished = true
        }
        return field
    }

    private mutating func quotedField() throws(CSVSyntaxError) -> Field {
        let opening = offset
        offset += 1
        let start = offset
        var hasDoubledQuotes = false
        while true {
            guard offset < bytes.count else {
                throw CSVSyntaxError(message: "unterminated quoted field", offset: opening)
            }
            if bytes[offset] == UInt8(ascii: "\"") {
                if offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "\"") {
                    hasDoubledQuotes = true
                    offset += 2
                    continue
                }
                break
            }
            offset += 1
        }
        let end = offset
        offset += 1  // the closing quote
        skipBlanks()
        guard offset == bytes.count || bytes[offset] == UInt8(ascii: ",") else {
            throw CSVSyntaxError(message: "unexpected text after a quoted field", offset: offset)
        }
        return Field(span: start..<end, hasDoubledQuotes: hasDoubledQuotes)
    }

    private mutating func skipBlanks() {
        while offset < bytes.count, Self.isBlank(bytes[offset]) { offset += 1 }
    }

    /// The blanks a field may have around it, which the scanner trims: a space or a tab.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// The text of a field, with doubled quotes undone.
    func text(of field: Field) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[field.span])
        guard field.hasDoubledQuotes else { return String(decoding: raw, as: UTF8.self) }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(raw.count)
        var skipNextQuote = false
        for byte in raw {
            if byte == UInt8(ascii: "\""), skipNextQuote {
                skipNextQuote = false
                continue
            }
            skipNextQuote = byte == UInt8(ascii: "\"")
            unescaped.append(byte)
        }
        return String(decoding: unescaped, as: UTF8.self)
    }

    /// The 1-based column (in Unicode scalars) of a byte offset in the line.
    func column(of offset: Int) -> Int {
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { column += 1 }
        return column
    }
}

/// A CSV syntax problem at a byte offset of the line.
struct CSVSyntaxError: Error {
    var message: String
    var offset: Int
}
