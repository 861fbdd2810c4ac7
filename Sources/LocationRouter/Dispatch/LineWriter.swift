import GeofenceKit

/// Output lines built in a fixed scratch buffer and appended to the output in one copy.
///
/// Appending many short pieces to an array one by one costs a capacity check, a uniqueness check and a copy call
/// each, which made them most of the cost of encoding an event. Here a line starts by making room for all its
/// pieces of bounded length at once (``boundedRoom``: literals, numbers, times), which are then written without a
/// check: a literal's length is known where it is written (so its copy is a few moves, not a `memcpy` call), and
/// numbers are written in place, eight digits at a time (``DecimalDigits``). Only a piece of any length (a name,
/// a reason) is checked: it flushes what is written so far when it does not fit with the room still needed after
/// it (a long name goes straight to the output), so any line can be written.
struct LineWriter {
    /// The room that all the pieces of bounded length of one line fit in together. The longest such line, a
    /// `state` event with a `detectedAt` time and generated names, needs under 400 bytes: the device (38) and
    /// region (59) with the longest numbers, the event and `inside` fields (35), two times (57 + 64), two
    /// coordinates (48 + 47), `seq` (27) and the end; a name or reason between them frees the room it follows.
    static let boundedRoom = 512

    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    /// Writes into `scratch` (at least twice ``boundedRoom``).
    init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        precondition(scratch.count >= 2 * Self.boundedRoom, "the scratch buffer must hold a line's bounded pieces")
        base = scratch.baseAddress!
        capacity = scratch.count
    }

    /// Starts a line: makes room for its pieces of bounded length, flushing into `output` when needed.
    @inline(__always)
    mutating func startLine(flushingInto output: inout [UInt8]) {
        if count &+ Self.boundedRoom > capacity { flush(into: &output) }
    }

    /// Appends what is written to `output` and starts again.
    mutating func flush(into output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    /// Checks, in debug builds, that `length` bytes fit: a bounded piece always does after ``startLine(flushingInto:)``.
    @inline(__always)
    private func assertRoom(_ length: Int) {
        assert(count + length <= capacity, "a line's bounded pieces outgrew LineWriter.boundedRoom")
    }

    // MARK: Pieces of bounded length

    /// A literal.
    @inline(__always)
    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            assertRoom(bytes.count)
            // A raw copy: `update(from:count:)` compared the two addresses first, in case they overlap.
            UnsafeMutableRawPointer(base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            count &+= bytes.count
        }
    }

    @inline(__always)
    mutating func write(byte: UInt8) {
        assertRoom(1)
        base[count] = byte
        count &+= 1
    }

    /// The digits of a number of up to eight digits as one word (``DecimalDigits/upToEightDigits(_:)``), which
    /// ``write(digits:)`` writes again; `count` is 0 for a longer number.
    struct Digits {
        var word: UInt64
        var count: Int
    }

    /// The decimal digits of a non-negative number: up to eight digits (device numbers, region indices, `seq`)
    /// in one 8-byte store (``DecimalDigits/upToEightDigits(_:)``; the bytes past them are scratch). Returns them
    /// as one word, for a number that a line repeats (a generated device's in its region's name).
    @inline(__always) @discardableResult
    mutating func write(decimal value: Int) -> Digits {
        assertRoom(20)
        // One unsigned comparison: a negative number, which has no digits here, takes the long path, which traps.
        guard UInt(bitPattern: value) < 100_000_000 else {
            write(longDecimal: value)
            return Digits(word: 0, count: 0)
        }
        let (word, length) = DecimalDigits.upToEightDigits(UInt64(truncatingIfNeeded: value))
        let digits = Digits(word: word, count: length)
        write(digits: digits)
        return digits
    }

    /// Digits that ``write(decimal:)`` returned: one store.
    @inline(__always)
    mutating func write(digits: Digits) {
        assertRoom(8)
        UnsafeMutableRawPointer(base + count).storeBytes(of: digits.word.littleEndian, as: UInt64.self)
        count &+= digits.count
    }

    /// ``write(decimal:)`` past eight digits, out of line so that the common case stays small where it is inlined.
    @inline(never)
    private mutating func write(longDecimal value: Int) {
        count &+= DecimalDigits.write(UInt64(value), at: base + count)
    }

    /// The shortest round-trip text of a `Double` (``ShortestDouble``): always inlined, as an event's second
    /// coordinate was a call otherwise.
    @inline(always)
    mutating func write(_ value: Double) {
        assertRoom(ShortestDouble.scratchLength)
        count &+= ShortestDouble.write(value, into: base + count)
    }

    /// A timestamp as ISO-8601 (``Timestamp/iso8601``), through the encoder's cache of the last day's date.
    @inline(__always)
    mutating func write(_ time: Timestamp, cache: inout TimestampTextCache) {
        assertRoom(TimestampTextCache.room)
        count &+= cache.write(time, at: base + count)
    }

    // MARK: Pieces of any length

    /// Bytes of any length; afterwards there is room for ``boundedRoom`` bytes again.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, flushingInto output: inout [UInt8]) {
        if count &+ bytes.count &+ Self.boundedRoom > capacity { flush(into: &output) }
        guard bytes.count &+ Self.boundedRoom <= capacity else { return output.append(contentsOf: bytes) }
        if let start = bytes.baseAddress { (base + count).update(from: start, count: bytes.count) }
        count &+= bytes.count
    }

    mutating func write(_ bytes: [UInt8], flushingInto output: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0, flushingInto: &output) }
    }

    mutating func write(_ text: String, flushingInto output: inout [UInt8]) {
        var text = text
        text.withUTF8 { write($0, flushingInto: &output) }
    }
}
