import GeofenceKit

// `true`, `false`, `null`, skipping whole values, and the hint for `NaN` and `Infinity`.

extension JSONScanner {
    /// Consumes `true`, `false` or `null` and returns it as `Bool?` (`nil` for `null`).
    mutating func readLiteral() throws(InputError) -> Bool? {
        if consumeWord("true") { return true }
        if consumeWord("false") { return false }
        if consumeWord("null") { return nil }
        throw unexpected(expected: "a value").withNonFiniteHint(spelled: spellsNonFinite)
    }

    /// Whether the text at the current position spells NaN or Infinity (in any case), which JSON cannot express.
    var spellsNonFinite: Bool {
        for word: StaticString in ["nan", "inf"] {
            let count = word.utf8CodeUnitCount
            guard offset + count <= bytes.count else { continue }
            if (0..<count).allSatisfy({ bytes[offset + $0] | 0x20 == word.utf8Start[$0] }) { return true }
        }
        return false
    }

    mutating func consumeWord(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let pointer = word.utf8Start
        for i in 0..<count where bytes[offset + i] != pointer[i] { return false }
        // `nullx` is not `null` followed by garbage the caller would report less clearly.
        if offset + count < bytes.count, Self.isIdentifierByte(bytes[offset + count]) { return false }
        offset += count
        return true
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
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
    func withNonFiniteHint(spelled: Bool) -> InputError {
        guard spelled else { return self }
        var copy = self
        copy.message += " (NaN and Infinity are not JSON numbers)"
        return copy
    }
}
