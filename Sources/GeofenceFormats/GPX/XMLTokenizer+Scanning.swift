#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

// Positions, element names and byte searches for the tokenizer, on raw pointers.

extension XMLTokenizer {
    /// Appends a name to the open elements' names.
    mutating func pushName(_ name: UnsafePointer<UInt8>, count: Int) {
        let end = namesEnd + count
        if end > elementNames.count {
            elementNames.append(contentsOf: repeatElement(0, count: max(end - elementNames.count, 64)))
        }
        let start = namesEnd
        elementNames.withUnsafeMutableBufferPointer { names in
            names.baseAddress.map { ($0 + start).update(from: name, count: count) }
        }
        namesEnd = end
    }

    /// The line and column of offset `i` of the buffer being scanned.
    mutating func position(at i: Int, _ p: UnsafePointer<UInt8>) -> (line: Int, column: Int) {
        cursor.advance(to: pendingOffset + i, base: p, baseOffset: pendingOffset)
        return (cursor.line, cursor.column)
    }

    mutating func error(_ message: String, at i: Int, _ p: UnsafePointer<UInt8>) -> InputError {
        let (line, column) = position(at: i, p)
        return InputError(message, line: line, column: column)
    }

    func name(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: p + start, count: max(0, min(end - start, 200))), as: UTF8.self)
    }

    static func character(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Whether `byte` ends a name: whitespace (or another control character), `>`, `/`, `=`, quotes or `<`.
    @inline(__always)
    static func endsName(_ byte: UInt8) -> Bool {
        // All of them are below 64, so one bit each of a word: one shift and test per byte of a name.
        byte < 64 && (nameEnders >> UInt64(byte)) & 1 != 0
    }

    /// Bits 0x00…0x20, `"` (0x22), `'` (0x27), `/` (0x2F), `<` (0x3C), `=` (0x3D) and `>` (0x3E).
    static let nameEnders: UInt64 = 0x7000_8085_FFFF_FFFF

    /// Whether the `count` bytes at `a` and `b` are equal: eight at a time, then one by one (names are short,
    /// so this costs less than a call to `memcmp`).
    @inline(__always)
    static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        var k = 0
        while count &- k >= 8 {
            let left = UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self)
            guard left == UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) else { return false }
            k &+= 8
        }
        while k < count {
            guard a[k] == b[k] else { return false }
            k &+= 1
        }
        return true
    }

    @inline(__always)
    static func find(_ byte: UInt8, in p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let found = memchr(p + from, Int32(byte), to - from) else { return nil }
        return UnsafeRawPointer(p).distance(to: UnsafeRawPointer(found))
    }

    /// The offset of the first `a b` in `from..<to`.
    static func find(_ a: UInt8, _ b: UInt8, in p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var start = from
        while let index = find(a, in: p, from: start, to: to - 1) {
            if p[index + 1] == b { return index }
            start = index + 1
        }
        return nil
    }

    /// The offset of the first `a b c` in `from..<to`.
    static func find(_ a: UInt8, _ b: UInt8, _ c: UInt8, in p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var start = from
        while let index = find(a, in: p, from: start, to: to - 2) {
            if p[index + 1] == b && p[index + 2] == c { return index }
            start = index + 1
        }
        return nil
    }

    /// Whether the bytes at `i` start with `prefix`.
    static func hasPrefix(_ prefix: StaticString, _ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        let length = prefix.utf8CodeUnitCount
        return n - i >= length && memcmp(p + i, prefix.utf8Start, length) == 0
    }

    /// Whether the buffer ends (at `n`) inside what could still become `prefix`.
    static func isCutPrefix(_ prefix: StaticString, _ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        n - i < prefix.utf8CodeUnitCount && memcmp(p + i, prefix.utf8Start, n - i) == 0
    }
}
