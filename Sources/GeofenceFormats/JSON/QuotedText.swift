/// A short ASCII string as JSON writes it, quotes included (`"type"`), held as the three 8-byte words a scanner
/// compares it with: readers that expect one of a few known keys or values match it straight from the bytes,
/// instead of scanning each string (validating it byte by byte) and then comparing its text.
///
/// A match is exact: the bytes at the scanner are the quoted text and nothing else, so an escaped form of the same
/// text (`"typ\u0065"`), a longer string with the same start or any other string matches none of the known ones,
/// and the reader treats it as it treats an unknown key.
struct QuotedText {
    /// The bytes, quotes included: at most ``capacity``.
    let count: Int
    private let words: (UInt64, UInt64, UInt64)
    /// Ones over the `count` bytes of `words`, zeros past them.
    private let masks: (UInt64, UInt64, UInt64)

    static let capacity = 24

    /// `"text"`; `text` must be ASCII without quotes or backslashes, and at most 22 bytes.
    init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount + 2 <= Self.capacity, "\(text) is too long to match at once")
        var bytes = [UInt8](repeating: 0, count: Self.capacity)
        var masks = [UInt8](repeating: 0, count: Self.capacity)
        let quoted = [UInt8(ascii: "\"")] + UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            + [UInt8(ascii: "\"")]
        for (index, byte) in quoted.enumerated() {
            bytes[index] = byte
            masks[index] = 0xFF
        }
        func word(_ bytes: [UInt8], _ index: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[index * 8 + $1]) << (8 * $1) }
        }
        count = quoted.count
        words = (word(bytes, 0), word(bytes, 1), word(bytes, 2))
        self.masks = (word(masks, 0), word(masks, 1), word(masks, 2))
    }

    /// Whether the bytes at `offset` are this text.
    @inline(__always)
    func matches(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return false }
        guard bytes.count &- offset >= Self.capacity else {
            // Near the end of the bytes: one at a time.
            guard bytes.count &- offset >= count else { return false }
            return (0..<count).allSatisfy { index in
                let word = index < 8 ? words.0 : index < 16 ? words.1 : words.2
                return bytes[offset + index] == UInt8(truncatingIfNeeded: word >> (8 * (index % 8)))
            }
        }
        func load(_ index: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset &+ index &* 8, as: UInt64.self))
        }
        let difference = ((load(0) ^ words.0) & masks.0) | ((load(1) ^ words.1) & masks.1)
            | ((load(2) ^ words.2) & masks.2)
        return difference == 0
    }
}

extension JSONScanner {
    /// Consumes `text` when it is next.
    @inline(__always)
    mutating func consume(_ text: QuotedText) -> Bool {
        guard text.matches(bytes, at: offset) else { return false }
        offset &+= text.count
        return true
    }
}

extension JSONScanner {
    /// Consumes `text` when the bytes at the scanner are exactly it: a run of punctuation and keys as a program
    /// writes it without whitespace (`,"properties":{"radius":`), compared eight bytes at a time, then byte by byte.
    /// No call: most texts are a key or two, and a reader tries several that differ from the first word (a state
    /// snapshot's line asks for a region's optional keys, mostly absent, twenty times), where a call to `memcmp`
    /// cost more than the comparison.
    @inline(__always)
    mutating func consumeVerbatim(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count &- offset >= count, let base = bytes.baseAddress else { return false }
        let next = UnsafeRawPointer(base + offset), expected = UnsafeRawPointer(text.utf8Start)
        var index = 0
        while index &+ 8 <= count {
            guard
                next.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    == expected.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index &+= 8
        }
        while index < count {
            guard
                next.load(fromByteOffset: index, as: UInt8.self)
                    == expected.load(fromByteOffset: index, as: UInt8.self)
            else { return false }
            index &+= 1
        }
        offset &+= count
        return true
    }
}
