/// Reads the numbers of sample lines — plain decimals such as `25.047812345678903` or `-12` — in one tight loop
/// over the bytes, correctly rounded.
///
/// Coordinates are about a third of a sample line's bytes and were its costliest part to decode through
/// ``JSONScanner/readNumber()``, which tracks marks for messages and checks bounds digit by digit. This parser
/// takes only the common shape — JSON's number syntax without an exponent, at most 19 significant digits — and
/// answers `nil` for anything else (exponents, long mantissas, leading zeros, no digit after the point, …), so
/// that the caller reads the number the general way, which handles every number and says what is wrong with a
/// bad one. The value is the one `readNumber` gives: both convert through ``DecimalConversion``.
enum PlainDecimalParser {
    /// The number starting at `start`: its value, the offset just after its text and whether the text is an
    /// integer (no fraction); `nil` when the text is not a
    /// plain decimal (see above) or a non-digit byte other than `,`, `}`, `]`, a space, a tab or a carriage return
    /// follows it (so that `1.5x` and `1.5e3` are left to the general reader).
    @inline(__always)
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
        -> (value: Double, end: Int, isInteger: Bool)?
    {
        let count = bytes.count
        var index = start
        guard index < count else { return nil }
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // The integer part: `0`, or a digit 1–9 and more digits.
        guard index < count, bytes[index] &- UInt8(ascii: "0") < 10 else { return nil }
        let integerStart = index
        var mantissa: UInt64 = 0
        while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        var digits = index - integerStart
        if digits > 1, bytes[integerStart] == UInt8(ascii: "0") { return nil }
        var fractionDigits = 0
        let isInteger = !(index < count && bytes[index] == UInt8(ascii: "."))
        if !isInteger {
            index += 1
            let fractionStart = index
            // A full-precision fraction has 13 to 16 digits: up to eight at a time while eight bytes are left. (A
            // mantissa that wraps has more than 19 significant digits, which the count below refuses; wrapping
            // n digits at once wraps to the same value as n steps of one.)
            while index + 8 <= count {
                let (value, digitCount) = EightBytes.leadingDigits(at: index, in: bytes)
                mantissa = mantissa &* powersOfTen[digitCount] &+ value
                index += digitCount
                guard digitCount == 8 else { break }
            }
            while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            fractionDigits = index - fractionStart
            guard fractionDigits > 0 else { return nil }
            digits += fractionDigits
        }
        if index < count {
            switch bytes[index] {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\t"),
                UInt8(ascii: "\r"):
                break
            default:
                return nil
            }
        }
        // Leading zeros (`0.000123`) are digits of the text but not significant ones (they leave the mantissa 0).
        if digits > 19 {
            for position in integerStart..<index where bytes[position] != UInt8(ascii: ".") {
                guard bytes[position] == UInt8(ascii: "0") else { break }
                digits -= 1
            }
        }
        guard let value = DecimalConversion.double(mantissa: mantissa, digits: digits, exponent: -fractionDigits)
        else { return nil }
        return (negative ? -value : value, index, isInteger)
    }

    /// 10^0…10^8, to shift a mantissa left by the digits read at once.
    private static let powersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]
}
