/// Decimal digits of unsigned integers written straight into a byte buffer: what the event encoder's numbers,
/// ``ShortestDouble`` and the ISO-8601 writer share.
///
/// A digit at a time costs a division per digit (a multiplication by a reciprocal, and another to get the
/// remainder); a coordinate has 17. Here eight digits come from one division by 10⁸ and a few multiplications
/// that split all eight at once (``writeEight(_:at:)``), shorter tails go two digits per division from a table,
/// and the digit count comes from comparisons, not divisions. Inlinable: the event encoder writes four numbers
/// an event.
public enum DecimalDigits {
    /// The number of decimal digits of `value` (1 for 0).
    @inlinable @inline(__always)
    public static func count(_ value: UInt64) -> Int {
        // A binary search over the powers of ten, as constants: four or five comparisons, no table.
        if value < 100_000_000 {
            if value < 10_000 {
                if value < 100 { return value < 10 ? 1 : 2 }
                return value < 1_000 ? 3 : 4
            }
            if value < 1_000_000 { return value < 100_000 ? 5 : 6 }
            return value < 10_000_000 ? 7 : 8
        }
        if value < 10_000_000_000_000_000 {
            if value < 1_000_000_000_000 {
                if value < 10_000_000_000 { return value < 1_000_000_000 ? 9 : 10 }
                return value < 100_000_000_000 ? 11 : 12
            }
            if value < 100_000_000_000_000 { return value < 10_000_000_000_000 ? 13 : 14 }
            return value < 1_000_000_000_000_000 ? 15 : 16
        }
        if value < 1_000_000_000_000_000_000 { return value < 100_000_000_000_000_000 ? 17 : 18 }
        return value < 10_000_000_000_000_000_000 ? 19 : 20
    }

    /// Writes `value` in `count` decimal digits at `text`, with leading zeros when it has fewer (it must not have
    /// more: `value` < 10^`count`).
    @inlinable @inline(__always)
    public static func write(_ value: UInt64, count: Int, at text: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var end = count
        // Eight digits at a time from the right, while eight are left to write.
        while end >= 8 {
            let next = rest / 100_000_000
            end -= 8
            writeEight(UInt32(truncatingIfNeeded: rest &- next &* 100_000_000), at: text + end)
            rest = next
        }
        pairs.withUTF8Buffer { pairs in
            while end >= 2 {
                let pair = Int(truncatingIfNeeded: rest % 100)
                rest /= 100
                end -= 2
                text[end] = pairs[2 &* pair]
                text[end &+ 1] = pairs[2 &* pair &+ 1]
            }
        }
        if end == 1 { text[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest) }
    }

    /// Writes every digit of `value` at `text` and returns how many there are.
    @inlinable @inline(__always)
    public static func write(_ value: UInt64, at text: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = count(value)
        write(value, count: digits, at: text)
        return digits
    }

    /// Writes the sixteen digits of `value` (< 10¹⁶, with leading zeros) at `text`, as two 8-digit words.
    @inlinable @inline(__always)
    public static func writeSixteen(_ value: UInt64, at text: UnsafeMutablePointer<UInt8>) {
        let high = value / 100_000_000
        writeEight(UInt32(truncatingIfNeeded: high), at: text)
        writeEight(UInt32(truncatingIfNeeded: value &- high &* 100_000_000), at: text + 8)
    }

    /// 10^`exponent`, for 0 ≤ `exponent` ≤ 19 (a switch of constants, which the compiler makes a table lookup).
    @inlinable @inline(__always)
    public static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        case 19: 10_000_000_000_000_000_000
        default: preconditionFailure("10^\(exponent) is not a UInt64")
        }
    }

    /// Writes the eight digits of `value` (< 10⁸, with leading zeros) at `text` in one 8-byte store.
    @inlinable @inline(__always)
    public static func writeEight(_ value: UInt32, at text: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(text).storeBytes(of: eightDigits(value).littleEndian, as: UInt64.self)
    }

    /// The eight digits of `value` (< 10⁸, with leading zeros) as ASCII in one word, the first digit in its
    /// lowest byte (the first in memory when stored little-endian).
    ///
    /// The number is split in lanes of one 64-bit word, each split again in the same multiplication: two 4-digit
    /// halves in 32-bit lanes, then four 2-digit quarters in 16-bit lanes, then eight digits in bytes. `(x * 10486)
    /// >> 20` is `x / 100` for x < 10⁴ and `(x * 103) >> 10` is `x / 10` for x < 100; neither product overflows
    /// its lane.
    ///
    /// Each step puts a lane's quotient q = x / d in its low half and the remainder x − q·d in its high half (`s`
    /// bits up), computed as `x << s + q · (1 − d << s)`: the same sum (every half stays within its lane, so the
    /// wrapping arithmetic is exact), in one multiplication and one addition where `q | (x − q·d) << s` took a
    /// multiplication, a subtraction, a shift and an `or` (about six instructions fewer for eight digits).
    @inlinable @inline(__always)
    public static func eightDigits(_ value: UInt32) -> UInt64 {
        let high = UInt64(value / 10_000)
        let halves = UInt64(value) &<< 32 &+ high &* (1 &- 10_000 &<< 32)
        let hundreds = ((halves &* 10486) >> 20) & 0x0000_007F_0000_007F
        let quarters = halves &<< 16 &+ hundreds &* (1 &- 100 &<< 16)
        let tens = ((quarters &* 103) >> 10) & 0x000F_000F_000F_000F
        let digits = quarters &<< 8 &+ tens &* (1 &- 10 &<< 8)
        return digits | 0x3030_3030_3030_3030
    }

    /// The digits of `value` (< 1,000, without leading zeros) as ASCII in the low bytes of a word, the first digit
    /// in the lowest, and how many there are: a pair from ``pairs`` and at most one digit more, for a few
    /// instructions where ``eightDigits(_:)`` takes four multiplications in a chain and the count its comparisons.
    @inlinable @inline(__always)
    public static func upToThreeDigits(_ value: UInt64) -> (digits: UInt64, count: Int) {
        if value < 10 { return (value | 0x30, 1) }
        let high = value / 100
        let pair = pair(value &- high &* 100)
        if value < 100 { return (pair, 2) }
        return (high | 0x30 | pair &<< 8, 3)
    }

    /// The digits of `value` (< 10⁸, without leading zeros) as ASCII in the low bytes of a word, the first digit in
    /// the lowest, and how many there are: one store writes them all. Up to four digits, the pairs of ``pairs``
    /// (the device numbers and `seq` of events); more take ``eightDigits(_:)`` with its leading zeros shifted out.
    @inlinable @inline(__always)
    public static func upToEightDigits(_ value: UInt64) -> (digits: UInt64, count: Int) {
        if value < 1_000 { return upToThreeDigits(value) }
        if value < 10_000 {
            let high = value / 100
            return (pair(high) | pair(value &- high &* 100) &<< 16, 4)
        }
        let count = value < 100_000 ? 5 : value < 1_000_000 ? 6 : value < 10_000_000 ? 7 : 8
        return (eightDigits(UInt32(truncatingIfNeeded: value)) &>> (64 &- 8 &* UInt64(count)), count)
    }

    /// The two digits of `value` (< 100, with a leading zero) as ASCII in the low two bytes of a word.
    @inlinable @inline(__always)
    static func pair(_ value: UInt64) -> UInt64 {
        pairs.withUTF8Buffer { pairs in
            UInt64(UInt16(littleEndian: UnsafeRawPointer(pairs.baseAddress! + 2 &* Int(truncatingIfNeeded: value)).loadUnaligned(as: UInt16.self)))
        }
    }

    /// "00", "01", … "99".
    @usableFromInline static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
}
