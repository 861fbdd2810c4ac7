/// Byte scans eight bytes at a time in one 64-bit word (SWAR), for the per-byte loops of sample lines: finding the
/// end of a CSV field and reading a coordinate's digits. Each answers exactly what the byte-by-byte loop would.
enum EightBytes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first `first` or `second` byte in `bytes[start...]`, or `bytes.count`.
    @inline(__always)
    static func firstIndex(of first: UInt8, or second: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int)
        -> Int
    {
        var index = start
        if let base = bytes.baseAddress.map(UnsafeRawPointer.init) {
            let firstPattern = UInt64(first) &* ones
            let secondPattern = UInt64(second) &* ones
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                // A zero byte of `word ^ pattern` is a match; the lowest flag is exact (see `zeroBytes`).
                let matches = zeroBytes(word ^ firstPattern) | zeroBytes(word ^ secondPattern)
                if matches != 0 { return index + matches.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < bytes.count, bytes[index] != first, bytes[index] != second { index += 1 }
        return index
    }

    /// The offset of the first comma, quote or line feed at or after `start` (or `bytes.count`); `start` itself when a
    /// byte before it is not ASCII, so that the caller refuses the name (``OrderedCSVRow``'s device).
    ///
    /// The three are below `-` (0x2D), as few of a name's bytes are (`device-17`, `bus_4.2`): a word with no byte
    /// below it and none from 0x80 up is passed with one test. The first such byte is then looked at alone: a stop
    /// ends the name, a byte from 0x80 up refuses it, any other (a space, `#`, `+`, …) is part of the name, and the
    /// scan goes on after it.
    @inline(__always)
    static func endOfASCIIName(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return start }
        let dashes = UInt64(UInt8(ascii: "-")) &* ones
        var index = start
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // Bytes below 0x2D (the lowest flag exact, as in `zeroBytes`) and bytes from 0x80 up.
            let flags = (word &- dashes) & ~word & highBits | word & highBits
            guard flags != 0 else {
                index &+= 8
                continue
            }
            index &+= flags.trailingZeroBitCount &>> 3
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") { return index }
            guard byte < 0x80 else { return start }
            index &+= 1
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") { return index }
            guard byte < 0x80 else { return start }
            index += 1
        }
        return index
    }

    /// The high bit of each zero byte of `word`, where the lowest flag is exact: a borrow can only flag a byte
    /// above a real zero, so the first match (`trailingZeroBitCount / 8`) is right, and it costs one operation
    /// less per word than a borrow-free test. The end of a CSV field and the special bytes of a JSON string
    /// (``JSONScanner/specialStringBytes(_:)``) both need only the first.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highBits
    }

    /// Whether every byte of `bytes` is ASCII (below 0x80).
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let base = bytes.baseAddress.map(UnsafeRawPointer.init) {
            var highBitsSeen: UInt64 = 0
            while index + 8 <= bytes.count {
                highBitsSeen |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            guard highBitsSeen & highBits == 0 else { return false }
        }
        while index < bytes.count {
            guard bytes[index] < 0x80 else { return false }
            index += 1
        }
        return true
    }

    /// The value of the eight ASCII digits at `offset` (the first is the most significant), or `nil` when one of
    /// them is not a digit; there must be eight bytes there.
    @inline(__always)
    static func digits(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let word = load(at: offset, in: bytes)
        guard nonDigits(word) == 0 else { return nil }
        return value(ofDigits: word)
    }

    /// The digits that start at `offset`, up to eight: their value and how many there are (0 when the byte at
    /// `offset` is not a digit); there must be eight bytes there. A fraction's last few digits in one step
    /// instead of a loop over them.
    @inline(__always)
    static func leadingDigits(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (value: UInt64, count: Int) {
        leadingDigits(of: load(at: offset, in: bytes))
    }

    /// The digits that start `word` (its lowest bytes), up to eight: their value and how many there are.
    @inline(__always)
    static func leadingDigits(of word: UInt64) -> (value: UInt64, count: Int) {
        let count = leadingDigitCount(of: word)
        guard count > 0 else { return (0, 0) }
        return (value(ofLeadingDigits: count, in: word), count)
    }

    /// How many digits start `word` (its lowest bytes): 0 to 8.
    @inline(__always)
    static func leadingDigitCount(of word: UInt64) -> Int {
        nonDigits(word).trailingZeroBitCount &>> 3
    }

    /// The value of the first `count` bytes of `word` (its lowest), which must be digits, for `count` 1 to 8.
    @inline(__always)
    static func value(ofLeadingDigits count: Int, in word: UInt64) -> UInt64 {
        // The digits moved to the word's last bytes (the least significant places), '0's before them; the '0's
        // shifted in two steps so that eight digits (a shift by 64) leave none.
        let kept = UInt64(8 &* count)
        let padded = word &<< (64 &- kept) | (0x3030_3030_3030_3030 &>> (kept &- 8)) &>> 8
        return value(ofDigits: padded)
    }

    /// The eight bytes at `offset` as a little-endian word (the first byte the lowest); there must be eight there.
    @inline(__always)
    static func load(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        UInt64(
            littleEndian: UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Non-zero in the high nibble of each byte of `word` that is not an ASCII digit, and zero for the digits
    /// below the first such byte: a digit's high nibble is 3, and adding 6 keeps it 3. (The addition can carry
    /// out of a byte of 0xFA or more, which is not a digit, into the bytes after it only.)
    @inline(__always)
    private static func nonDigits(_ word: UInt64) -> UInt64 {
        let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let threes: UInt64 = 0x3030_3030_3030_3030
        return ((word & highNibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & highNibbles) ^ threes)
    }

    /// The value of a word of eight ASCII digits, the first the most significant: pairs, then quads, then all
    /// eight, each step one multiplication.
    @inline(__always)
    private static func value(ofDigits word: UInt64) -> UInt64 {
        var value = word & 0x0F0F_0F0F_0F0F_0F0F
        value = (value &* 2561) >> 8 & 0x00FF_00FF_00FF_00FF
        value = (value &* 6_553_601) >> 16 & 0x0000_FFFF_0000_FFFF
        return (value &* 42_949_672_960_001) >> 32
    }
}
