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
///
/// Nothing out of line takes the writer itself (`inout self`): its rare paths (a flush, a long number, a piece of
/// any length) are static functions given its pointer and count, which return the new count. A writer whose
/// address went to a call was kept in memory for the whole loop that writes the lines, every piece loading its
/// base and storing its count (about 30 instructions an event).
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
    @inline(__always)
    mutating func flush(into output: inout [UInt8]) {
        Self.append(base, count: count, to: &output)
        count = 0
    }

    /// ``flush(into:)``'s copy, out of line (it is rare: once per 8 KiB).
    @inline(never)
    private static func append(_ base: UnsafeMutablePointer<UInt8>, count: Int, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
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

    /// ``write(decimal:)`` past eight digits.
    @inline(__always)
    private mutating func write(longDecimal value: Int) {
        count &+= Self.writeLongDecimal(value, at: base + count)
    }

    /// Out of line, so that the common case stays small where it is inlined.
    @inline(never)
    private static func writeLongDecimal(_ value: Int, at text: UnsafeMutablePointer<UInt8>) -> Int {
        DecimalDigits.write(UInt64(value), at: text)
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
    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, flushingInto output: inout [UInt8]) {
        count = Self.write(bytes, base: base, count: count, capacity: capacity, flushingInto: &output)
    }

    @inline(__always)
    mutating func write(_ bytes: [UInt8], flushingInto output: inout [UInt8]) {
        let (base, count, capacity) = (base, count, capacity)
        self.count = bytes.withUnsafeBufferPointer {
            Self.write($0, base: base, count: count, capacity: capacity, flushingInto: &output)
        }
    }

    @inline(__always)
    mutating func write(_ text: String, flushingInto output: inout [UInt8]) {
        var text = text
        let (base, count, capacity) = (base, count, capacity)
        self.count = text.withUTF8 {
            Self.write($0, base: base, count: count, capacity: capacity, flushingInto: &output)
        }
    }

    /// ``write(_:flushingInto:)`` of a writer at `base` with `count` bytes written: returns its new count.
    @inline(never)
    private static func write(
        _ bytes: UnsafeBufferPointer<UInt8>, base: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int,
        flushingInto output: inout [UInt8]
    ) -> Int {
        var count = count
        if count &+ bytes.count &+ boundedRoom > capacity {
            append(base, count: count, to: &output)
            count = 0
        }
        guard bytes.count &+ boundedRoom <= capacity else {
            output.append(contentsOf: bytes)
            return count
        }
        if let start = bytes.baseAddress { (base + count).update(from: start, count: bytes.count) }
        return count &+ bytes.count
    }
}
