/// The nearest `Double` to a decimal fraction with up to 19 significant digits, exactly and without a string.
///
/// Full-precision coordinates (`25.047812345678903`: 17 digits) are past the 15 digits that one floating-point
/// division converts exactly (Clinger's fast path), and converting them through `strtod` costs a `String` and a
/// general parser per number. Here `mantissa / 10^k` is computed as `(mantissa / 5^k) × 2^-k` with one 128-by-64-bit
/// integer division, whose quotient holds 64 significant bits and whose remainder says whether anything is left
/// below them, so rounding to 53 bits (half to even) is exact: the same `Double` as `strtod` gives.
enum DecimalConversion {
    /// `mantissa × 10^exponent` rounded to the nearest `Double`, for a number whose text had `digits` significant
    /// digits (all read into `mantissa`, which may have wrapped past 19); `nil` when no exact path here applies and
    /// the caller must parse the text the general way.
    ///
    /// The readers of JSON, GPX and sample lines all end in this: 0; up to 2^53 with a power of ten up to 10^22,
    /// both exact as `Double`s, one multiplication or division (Clinger's fast path); other fractions of up to 19
    /// digits, one integer division (``double(mantissa:negativePowerOfTen:)``). Each is correctly rounded, so which
    /// one runs never changes the value.
    @inline(__always)
    static func double(mantissa: UInt64, digits: Int, exponent: Int) -> Double? {
        guard digits <= 19 else { return nil }
        if mantissa == 0 { return 0 }
        if mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            let value = Double(mantissa)
            return exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        }
        return exponent <= 0 ? double(mantissa: mantissa, negativePowerOfTen: -exponent) : nil
    }

    /// 10^0…10^22, all exactly representable.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// 5^k for k = 0…27 (5^27 < 2^63).
    private static let powersOfFive: [UInt64] = {
        var powers: [UInt64] = [1]
        for _ in 1...27 { powers.append(powers[powers.count - 1] * 5) }
        return powers
    }()

    /// The largest `k` handled: 10^-27 is far below any coordinate's last digit.
    static let maximumNegativeExponent = 27

    /// `mantissa × 10^-k` rounded to the nearest `Double` (ties to even), for `mantissa > 0` and
    /// `0 ≤ k ≤ maximumNegativeExponent`; `nil` outside those bounds.
    static func double(mantissa: UInt64, negativePowerOfTen k: Int) -> Double? {
        guard mantissa > 0, k >= 0, k <= maximumNegativeExponent else { return nil }
        let divisor = powersOfFive[k]
        // Both normalised to bit 63, so that the quotient of (m' · 2^64 or 2^63) / d' falls in [2^63, 2^64).
        let mantissaShift = mantissa.leadingZeroBitCount
        let divisorShift = divisor.leadingZeroBitCount
        let m = mantissa << mantissaShift
        let d = divisor << divisorShift
        let fractionBits = m < d ? 64 : 63
        let dividend = fractionBits == 64 ? (high: m, low: UInt64(0)) : (high: m >> 1, low: m << 63)
        let (quotient, remainder) = d.dividingFullWidth(dividend)
        // Keep 53 of the quotient's 64 bits; the 11 dropped bits and the remainder decide the rounding.
        var significand = quotient >> 11
        let dropped = quotient & 0x7FF
        if dropped > 0x400 || (dropped == 0x400 && (remainder != 0 || significand & 1 == 1)) {
            significand += 1
        }
        // mantissa / 5^k = (m / d) · 2^(divisorShift − mantissaShift), and m / d = quotient · 2^-fractionBits.
        let exponent = 11 - fractionBits + divisorShift - mantissaShift - k
        return Double(sign: .plus, exponent: exponent, significand: Double(significand))
    }
}
