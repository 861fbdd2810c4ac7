import GeofenceKit

/// An output line built in a fixed scratch buffer and appended to the output in one copy.
///
/// Appending many short pieces to an array one by one costs a capacity check, a uniqueness check and a copy call
/// each, which made them most of the cost of encoding an event. A piece that does not fit in the space left
/// flushes what is written so far first (a long name goes straight to the output), so any line can be written.
struct LineWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    /// Writes into `scratch` (at least 128 bytes).
    init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        precondition(scratch.count >= 128, "the scratch buffer must hold the longest number")
        base = scratch.baseAddress!
        capacity = scratch.count
    }

    /// Makes room for `length` bytes, flushing into `output` when needed.
    private mutating func reserve(_ length: Int, flushingInto output: inout [UInt8]) {
        if count + length > capacity { flush(into: &output) }
    }

    /// Appends what is written to `output` and starts again.
    mutating func flush(into output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    mutating func write(_ text: StaticString, flushingInto output: inout [UInt8]) {
        text.withUTF8Buffer { write($0, flushingInto: &output) }
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, flushingInto output: inout [UInt8]) {
        reserve(bytes.count, flushingInto: &output)
        guard bytes.count <= capacity else { return output.append(contentsOf: bytes) }
        if let start = bytes.baseAddress { (base + count).update(from: start, count: bytes.count) }
        count += bytes.count
    }

    mutating func write(_ bytes: [UInt8], flushingInto output: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0, flushingInto: &output) }
    }

    mutating func write(byte: UInt8, flushingInto output: inout [UInt8]) {
        reserve(1, flushingInto: &output)
        base[count] = byte
        count += 1
    }

    /// The decimal digits of a non-negative number.
    mutating func write(decimal value: Int, flushingInto output: inout [UInt8]) {
        reserve(20, flushingInto: &output)
        var digits = 0
        var rest = value
        repeat {
            digits += 1
            rest /= 10
        } while rest > 0
        rest = value
        for i in stride(from: count + digits - 1, through: count, by: -1) {
            base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count += digits
    }

    /// The shortest round-trip text of a `Double` (``ShortestDouble``).
    mutating func write(_ value: Double, flushingInto output: inout [UInt8]) {
        reserve(ShortestDouble.scratchLength, flushingInto: &output)
        count += ShortestDouble.write(value, into: base + count)
    }

    /// A timestamp as ISO-8601 (``Timestamp/iso8601``).
    mutating func write(_ time: Timestamp, flushingInto output: inout [UInt8]) {
        reserve(Timestamp.maximumISO8601Length, flushingInto: &output)
        count += time.writeISO8601(into: UnsafeMutableBufferPointer(start: base + count, count: capacity - count))
    }
}
