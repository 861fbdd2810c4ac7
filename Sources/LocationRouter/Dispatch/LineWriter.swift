import GeofenceKit

/// An output line built in a fixed scratch buffer and appended to the output in one copy.
///
/// Appending many short pieces to an array one by one costs a capacity check, a uniqueness check and a copy call
/// each, which made them most of the cost of encoding an event. Here a piece costs a bounds check and its bytes:
/// the writes are inlined, a literal's length is known where it is written (so its copy is a few moves, not a
/// `memcpy` call), and numbers are written in place two digits at a time (``DecimalDigits``). A piece that does
/// not fit in the space left flushes what is written so far first (a long name goes straight to the output), so
/// any line can be written.
struct LineWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    /// Writes into `scratch` (at least 128 bytes: the longest literal or number).
    init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        precondition(scratch.count >= 128, "the scratch buffer must hold the longest literal or number")
        base = scratch.baseAddress!
        capacity = scratch.count
    }

    /// Makes room for `length` bytes, flushing into `output` when needed.
    @inline(__always)
    private mutating func reserve(_ length: Int, flushingInto output: inout [UInt8]) {
        if count &+ length > capacity { flush(into: &output) }
    }

    /// Appends what is written to `output` and starts again.
    mutating func flush(into output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    /// A literal: shorter than the scratch buffer, so always copied into it.
    @inline(__always)
    mutating func write(_ text: StaticString, flushingInto output: inout [UInt8]) {
        text.withUTF8Buffer { bytes in
            reserve(bytes.count, flushingInto: &output)
            (base + count).update(from: bytes.baseAddress!, count: bytes.count)
            count &+= bytes.count
        }
    }

    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, flushingInto output: inout [UInt8]) {
        reserve(bytes.count, flushingInto: &output)
        guard bytes.count <= capacity else { return output.append(contentsOf: bytes) }
        if let start = bytes.baseAddress { (base + count).update(from: start, count: bytes.count) }
        count &+= bytes.count
    }

    mutating func write(_ bytes: [UInt8], flushingInto output: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0, flushingInto: &output) }
    }

    @inline(__always)
    mutating func write(byte: UInt8, flushingInto output: inout [UInt8]) {
        reserve(1, flushingInto: &output)
        base[count] = byte
        count &+= 1
    }

    /// The decimal digits of a non-negative number.
    @inline(__always)
    mutating func write(decimal value: Int, flushingInto output: inout [UInt8]) {
        reserve(20, flushingInto: &output)
        count &+= DecimalDigits.write(UInt64(value), at: base + count)
    }

    /// The shortest round-trip text of a `Double` (``ShortestDouble``).
    @inline(__always)
    mutating func write(_ value: Double, flushingInto output: inout [UInt8]) {
        reserve(ShortestDouble.scratchLength, flushingInto: &output)
        count &+= ShortestDouble.write(value, into: base + count)
    }

    /// A timestamp as ISO-8601 (``Timestamp/iso8601``), through the encoder's cache of the last day's date.
    @inline(__always)
    mutating func write(_ time: Timestamp, cache: inout TimestampTextCache, flushingInto output: inout [UInt8]) {
        reserve(TimestampTextCache.room, flushingInto: &output)
        count &+= cache.write(time, at: base + count)
    }
}
