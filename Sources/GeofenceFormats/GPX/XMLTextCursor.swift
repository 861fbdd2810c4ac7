#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

/// The line and column of positions in a byte stream that is read once, front to back, in chunks.
///
/// Positions are needed for every start tag (points carry their line) and for errors, but never behind the
/// reader: so the cursor only moves forward, counting the line feeds and UTF-8 continuation bytes it passes,
/// and each byte of a document is counted exactly once whatever the number of positions asked for.
/// Columns count Unicode scalars from 1, as editors do (and as the JSON readers report them).
struct XMLTextCursor: Sendable {
    /// The absolute stream offset the cursor has counted up to.
    private(set) var offset = 0
    /// The 1-based line of ``offset``.
    private(set) var line = 1
    /// The absolute offset where the current line starts.
    private var lineStart = 0
    /// UTF-8 continuation bytes between ``lineStart`` and ``offset``.
    private var continuationBytes = 0

    /// Counts the bytes up to absolute offset `target`.
    ///
    /// `base` holds the bytes from absolute offset `baseOffset` on, including every byte between ``offset`` and
    /// `target`. A target behind the cursor leaves it where it is. Line feeds are found with `memchr`; only the
    /// bytes after the last one are looked at one by one, for the column.
    mutating func advance(to target: Int, base: UnsafePointer<UInt8>, baseOffset: Int) {
        guard target > offset else { return }
        var index = offset - baseOffset
        let end = target - baseOffset
        while index < end, let found = memchr(base + index, 0x0A, end - index) {
            index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
            line += 1
            lineStart = baseOffset + index
            continuationBytes = 0
        }
        var continuation = 0
        while index < end {
            if base[index] & 0xC0 == 0x80 { continuation += 1 }
            index += 1
        }
        continuationBytes += continuation
        offset = target
    }

    /// Moves to absolute offset `target` over ASCII bytes that the caller has counted: `lineFeeds` line feeds
    /// since ``offset``, the last one just before absolute offset `lastLineStart`. (ASCII text has no continuation
    /// bytes, so the column needs no more.)
    mutating func advance(overASCIITo target: Int, lineFeeds: Int, lastLineStart: Int) {
        if lineFeeds > 0 {
            line += lineFeeds
            lineStart = lastLineStart
            continuationBytes = 0
        }
        offset = target
    }

    /// The 1-based column of ``offset``.
    var column: Int { offset - lineStart - continuationBytes + 1 }
}
