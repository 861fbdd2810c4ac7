import GeofenceKit

/// Reads a JSON text laid out exactly as its reader expects — the keys in their order, no whitespace — value by
/// value straight from its bytes, without building a tree (``JSONParser``). Each read consumes what it expected and
/// returns it, or returns `nil` where the text differs; the caller then reads the text the general way, which says
/// what is wrong with it. The values are the parser's own: strings and numbers are scanned and converted by the
/// same code, so a text read both ways gives the same values.
///
/// For lines that one writer produces by the million (a state snapshot's devices): the tree of each line cost more
/// than everything else in reading them.
package struct JSONCursor {
    private var scanner: JSONScanner

    /// Reads `bytes`, which must stay valid while the cursor is used.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes)
    }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { scanner.isAtEnd }

    /// Consumes `text` (ASCII punctuation and keys, such as `,"time":`) if the next bytes are exactly it.
    package mutating func consume(_ text: StaticString) -> Bool {
        scanner.consumeVerbatim(text)
    }

    /// A string, escapes decoded (`nil`: no valid string is next).
    package mutating func string() -> String? {
        guard scanner.peek() == UInt8(ascii: "\""), let token = try? scanner.readStringToken() else { return nil }
        return scanner.string(of: token)
    }

    /// A finite number, as ``JSONValue/number(path:)`` reads one.
    package mutating func number() -> Double? {
        guard let token = try? scanner.readNumber(), token.value.isFinite else { return nil }
        return token.value
    }

    /// An integer, as ``JSONValue/integer(path:)`` reads one: a number with no fractional part, within ±2^53.
    package mutating func integer() -> Int? {
        guard let value = number(), value.rounded(.towardZero) == value, abs(value) <= 9_007_199_254_740_992 else {
            return nil
        }
        return Int(exactly: value)
    }

    /// `true` or `false`.
    package mutating func bool() -> Bool? {
        if consume("true") { return true }
        if consume("false") { return false }
        return nil
    }
}
