/// Reads the numbers of sample lines — plain decimals such as `25.047812345678903` or `-12` — eight bytes at a
/// time, correctly rounded.
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
        parseInlined(bytes, from: start)
    }

    /// ``parse(_:from:)``, inlined wherever it is called: for the loops over lines of a known shape
    /// (``OrderedCSVRow``, ``OrderedNDJSONLine``), two numbers a line. As a hint (`__always`), the compiler kept it
    /// a call there, whose saving of registers and returning of the optional tuple through memory cost about 40
    /// instructions a number (callgrind).
    @inline(always)
    static func parseInlined(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
        -> (value: Double, end: Int, isInteger: Bool)?
    {
        guard start < bytes.count else { return nil }
        let negative = bytes[start] == UInt8(ascii: "-")
        let unsigned = negative ? start + 1 : start
        if unsigned + wordsRead <= bytes.count, let (mantissa, fractionDigits, end) = fraction(bytes, from: unsigned) {
            guard end == bytes.count || endsNumber(bytes[end]) else { return nil }
            // Correctly rounded either way; the multiplication needs no test of the mantissa's size.
            let value =
                mantissa == 0
                ? 0 : DecimalConversion.double(mantissa: mantissa, negativePowerOfTen: fractionDigits)
            guard let value else { return nil }
            return (negative ? -value : value, end, false)
        }
        return parseDigitByDigit(bytes, from: start)
    }

    /// How many bytes from the number's first digit ``fraction(_:from:)`` may load.
    private static let wordsRead = 25

    /// A decimal with one to seven integer digits (no leading zero), a point and one to sixteen fraction digits, at
    /// most 19 digits in all — every full-precision coordinate — read a word at a time: its digits as an integer,
    /// how many of them follow the point, and the offset after the last; `nil` for any other text, which
    /// ``parseDigitByDigit(_:from:)`` reads. There must be ``wordsRead`` bytes from `start`.
    ///
    /// The digit counts come first, from the words' non-digit bytes: the integer digits and the point from the word
    /// at `start`, the fraction's from the two words after the point. Each word's digits are then converted once,
    /// at their known count (``EightBytes/value(ofLeadingDigits:in:)``): no loop over digits, and the only
    /// branches that depend on the number are on its digit counts, which full-precision coordinates share.
    @inline(__always)
    private static func fraction(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
        -> (mantissa: UInt64, fractionDigits: Int, end: Int)?
    {
        let first = EightBytes.load(at: start, in: bytes)
        let integerDigits = EightBytes.leadingDigitCount(of: first)
        // The point is a byte of the first word: the one after its digits.
        guard integerDigits > 0, integerDigits < 8,
            first &>> UInt64(8 &* integerDigits) & 0xFF == UInt64(UInt8(ascii: ".")),
            integerDigits == 1 || first & 0xFF != UInt64(UInt8(ascii: "0"))
        else { return nil }
        let fractionStart = start &+ integerDigits &+ 1
        let head = EightBytes.load(at: fractionStart, in: bytes)
        let headDigits = EightBytes.leadingDigitCount(of: head)
        let integer = EightBytes.value(ofLeadingDigits: integerDigits, in: first)
        guard headDigits == 8 else {
            guard headDigits > 0 else { return nil }
            let mantissa = integer &* powersOfTen[headDigits] &+ EightBytes.value(ofLeadingDigits: headDigits, in: head)
            return (mantissa, headDigits, fractionStart &+ headDigits)
        }
        let tail = EightBytes.load(at: fractionStart &+ 8, in: bytes)
        let tailDigits = EightBytes.leadingDigitCount(of: tail)
        let fractionDigits = 8 &+ tailDigits
        // Sixteen fraction digits: a seventeenth is refused (at most 19 digits with the integer's).
        guard integerDigits &+ fractionDigits <= 19,
            tailDigits < 8 || bytes[fractionStart &+ 16] &- UInt8(ascii: "0") >= 10
        else { return nil }
        var mantissa = integer &* 100_000_000 &+ EightBytes.value(ofLeadingDigits: 8, in: head)
        if tailDigits > 0 {
            mantissa = mantissa &* powersOfTen[tailDigits] &+ EightBytes.value(ofLeadingDigits: tailDigits, in: tail)
        }
        return (mantissa, fractionDigits, fractionStart &+ fractionDigits)
    }

    /// Whether `byte` may follow a number: `,`, `}`, `]`, a space, a tab or a carriage return.
    @inline(__always)
    private static func endsNumber(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\t"),
            UInt8(ascii: "\r"):
            true
        default:
            false
        }
    }

    /// ``parse(_:from:)`` for every number ``fraction(_:from:)`` leaves: integers, long integer parts, leading zeros
    /// (`0.000…`), more than 19 digits, texts near the end of the bytes, and what is not a plain decimal at all.
    @inline(never)
    static func parseDigitByDigit(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
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
        if index < count, !endsNumber(bytes[index]) { return nil }
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
