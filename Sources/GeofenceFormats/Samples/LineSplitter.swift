#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

/// Splits a byte stream, fed in chunks of any size, into lines, with bounded memory.
///
/// Lines end at `\n`; a `\r` before it is dropped; the last line needs no newline. A line longer than
/// `maxLineLength` bytes is reported as ``Piece/tooLong(number:)`` and skipped without being held in memory, so a
/// 100 MB line without a newline costs no more than one chunk.

public struct LineSplitter: Sendable {
    public enum Piece: Sendable, Equatable {
        /// A line's bytes (without the line ending) and its 1-based number.
        case line(ArraySlice<UInt8>, number: Int)
        case tooLong(number: Int)
    }

    public let maxLineLength: Int
    private var carry: [UInt8] = []
    private var discarding = false
    private var lineNumber = 0

    public init(maxLineLength: Int = 1 << 20) {
        self.maxLineLength = maxLineLength
    }

    /// The lines that `chunk` completes, in order.
    public mutating func lines(in chunk: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var lineStart = chunk.startIndex
        for index in Self.newlines(in: chunk) {
            if discarding {
                discarding = false
            } else if carry.isEmpty {
                pieces.append(piece(chunk[lineStart..<index]))
            } else {
                carry.append(contentsOf: chunk[lineStart..<index])
                pieces.append(piece(carry[...]))
                carry = []
            }
            lineStart = index + 1
        }
        if !discarding {
            carry.append(contentsOf: chunk[lineStart...])
            if carry.count > maxLineLength {
                lineNumber += 1
                pieces.append(.tooLong(number: lineNumber))
                carry = []
                discarding = true
            }
        }
        return pieces
    }

    /// The indices of the line feeds in `chunk`, found with `memchr` (many bytes per instruction).
    private static func newlines(in chunk: [UInt8]) -> [Int] {
        chunk.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            var indices: [Int] = []
            var from = 0
            while from < buffer.count, let found = memchr(base + from, 0x0A, buffer.count - from) {
                let index = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                indices.append(index)
                from = index + 1
            }
            return indices
        }
    }

    /// The last line, when the input did not end with a newline.
    public mutating func finish() -> [Piece] {
        defer { carry = [] }
        return carry.isEmpty || discarding ? [] : [piece(carry[...])]
    }

    private mutating func piece(_ bytes: ArraySlice<UInt8>) -> Piece {
        lineNumber += 1
        guard bytes.count <= maxLineLength else { return .tooLong(number: lineNumber) }
        return .line(bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes, number: lineNumber)
    }
}
