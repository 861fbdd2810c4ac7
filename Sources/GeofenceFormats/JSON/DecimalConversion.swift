/// The nearest `Double` to a decimal fraction with up to 19 significant digits, exactly and without a string.
///
/// Full-precision coordinates (`25.047812345678903`: 17 digits) are past the 15 digits that one floating-point
/// division converts exactly (Clinger's fast path), and converting them through `strtod` costs a `String` and a
/// general parser per number. Here `mantissa / 10^k` is `mantissa × 5^-k × 2^-k`: a multiplication by a 128-bit
/// reciprocal of `5^k` (the Eisel–Lemire method) answers almost every number, and where its product lies too close
/// to a rounding boundary to decide, one 128-by-64-bit integer division does (its quotient holds 64 significant bits
/// and its remainder says whether anything is left below them). Both round to 53 bits half to even, exactly: the same
/// `Double` as `strtod` gives.
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
    static let powersOfFive: [UInt64] = {
        var powers: [UInt64] = [1]
        for _ in 1...27 { powers.append(powers[powers.count - 1] * 5) }
        return powers
    }()

    /// The largest `k` handled: 10^-27 is far below any coordinate's last digit.
    static let maximumNegativeExponent = 27

    /// `mantissa × 10^-k` rounded to the nearest `Double` (ties to even), for `mantissa > 0` and
    /// `0 ≤ k ≤ maximumNegativeExponent`; `nil` outside those bounds.
    @inline(__always)
    static func double(mantissa: UInt64, negativePowerOfTen k: Int) -> Double? {
        guard mantissa > 0, k >= 0, k <= maximumNegativeExponent else { return nil }
        return multiplied(mantissa: mantissa, negativePowerOfTen: k)
            ?? divided(mantissa: mantissa, negativePowerOfTen: k)
    }

    /// `mantissa × 10^-k` by one (rarely two) 64-by-64-bit multiplications with the reciprocal of `5^k`
    /// (``reciprocalsOfFiveHigh``, ``reciprocalsOfFiveLow``), or `nil` when
    /// the product cannot decide the rounding and ``divided(mantissa:negativePowerOfTen:)`` must.
    ///
    /// The normalised mantissa `w` (top bit set) times the upper word of the reciprocal gives `w × 5^-k` (scaled by
    /// a power of two) short of the lower word's part, which is below one unit of the product's upper word: it can
    /// reach the 55 bits kept only when the 9 bits below them are all ones, and then it is added. The product is
    /// then the exact value or at most one unit of its lower word above it, so its rounding can differ from the exact
    /// value's only when that lower word is 0 or 1 (the exact value may lie on a tie or just below a boundary). Those
    /// cases, and for simplicity any product whose 9 bits are still all ones, are left to the division: about one
    /// full-precision coordinate in 500. (Lemire, "Number Parsing at a Gigabyte per Second", 2021; the `fast_float`
    /// library.)
    @inline(__always)
    static func multiplied(mantissa: UInt64, negativePowerOfTen k: Int) -> Double? {
        let leadingZeros = mantissa.leadingZeroBitCount
        let w = mantissa << leadingZeros
        var (high, low) = w.multipliedFullWidth(by: reciprocalsOfFiveHigh[k])
        if high & 0x1FF == 0x1FF {
            let (carryHigh, _) = w.multipliedFullWidth(by: reciprocalsOfFiveLow[k])
            let (sum, overflow) = low.addingReportingOverflow(carryHigh)
            low = sum
            if overflow { high &+= 1 }
        }
        guard low > 1, high & 0x1FF != 0x1FF else { return nil }
        // The product's top bit is at 127 or 126: keep 54 bits (53 and the rounding bit), rounding half up, which
        // is half to even here since no tie is left (a tie's lower word is 0).
        let upperBit = Int(high >> 63)
        var significand = high >> (upperBit + 9)
        // log2(5^-k × 2^-k) = -k × log2(10): ⌊-k × 217706 / 65536⌋ is that, floored, for every k here.
        var exponent = ((-k * 217_706) >> 16) + 63 + upperBit - leadingZeros
        significand += significand & 1
        significand >>= 1
        if significand >= 1 << 53 {
            significand = 1 << 52
            exponent += 1
        }
        // The exponent of the leading bit; normal numbers only (coordinates are far from the subnormal range).
        guard exponent > -1023, exponent < 1024 else { return nil }
        return Double(bitPattern: UInt64(exponent + 1023) << 52 | (significand & ((1 << 52) - 1)))
    }

    /// `⌊2^(127 + z) / 5^k⌋ + 1` for k = 0…27, where `z` is the bit length of `5^k - 1` (`2^(z-1) < 5^k ≤ 2^z`):
    /// 5^-k normalised to 128 bits and rounded up, as its upper and lower 64-bit words. Literals, so that reading
    /// them costs no lazy initialisation per number; `DecimalConversionTests` recomputes them by long division.
    static let reciprocalsOfFiveHigh: [UInt64] = [
        0x8000_0000_0000_0000, 0xCCCC_CCCC_CCCC_CCCC, 0xA3D7_0A3D_70A3_D70A, 0x8312_6E97_8D4F_DF3B,
        0xD1B7_1758_E219_652B, 0xA7C5_AC47_1B47_8423, 0x8637_BD05_AF6C_69B5, 0xD6BF_94D5_E57A_42BC,
        0xABCC_7711_8461_CEFC, 0x8970_5F41_36B4_A597, 0xDBE6_FECE_BDED_D5BE, 0xAFEB_FF0B_CB24_AAFE,
        0x8CBC_CC09_6F50_88CB, 0xE12E_1342_4BB4_0E13, 0xB424_DC35_095C_D80F, 0x901D_7CF7_3AB0_ACD9,
        0xE695_94BE_C44D_E15B, 0xB877_AA32_36A4_B449, 0x9392_EE8E_921D_5D07, 0xEC1E_4A7D_B695_61A5,
        0xBCE5_0864_9211_1AEA, 0x971D_A050_74DA_7BEE, 0xF1C9_0080_BAF7_2CB1, 0xC16D_9A00_9592_8A27,
        0x9ABE_14CD_4475_3B52, 0xF796_87AE_D3EE_C551, 0xC612_0625_7658_9DDA, 0x9E74_D1B7_91E0_7E48,
    ]
    static let reciprocalsOfFiveLow: [UInt64] = [
        0x0000_0000_0000_0001, 0xCCCC_CCCC_CCCC_CCCD, 0x3D70_A3D7_0A3D_70A4, 0x645A_1CAC_0831_26EA,
        0xD3C3_6113_404E_A4A9, 0x0FCF_80DC_3372_1D54, 0xA63F_9A49_C2C1_B110, 0x3D32_9076_0469_1B4D,
        0xFDC2_0D2B_36BA_7C3E, 0x3168_0A88_F895_3031, 0xB573_440E_5A88_4D1C, 0xF78F_69A5_1539_D749,
        0xF93F_87B7_442E_45D4, 0x2865_A5F2_06B0_6FBA, 0x5384_84C1_9EF3_8C95, 0x0F9D_3701_4BF6_0A11,
        0x4C2E_BE68_7989_A9B4, 0x09BE_FEB9_FAD4_87C3, 0x3AFF_322E_6243_9FD0, 0x2B31_E9E3_D06C_32E6,
        0x88F4_BB1C_A6BC_F585, 0xD3F6_FC16_EBCA_5E04, 0x5324_C68B_12DD_6339, 0x75B7_053C_0F17_8294,
        0xC492_6A96_7279_3543, 0x3A83_DDBD_83F5_2205, 0x9536_4AFE_032A_819E, 0x775E_A264_CF55_347E,
    ]

    /// `mantissa × 10^-k` by one 128-by-64-bit integer division: exact in every case, and slower.
    static func divided(mantissa: UInt64, negativePowerOfTen k: Int) -> Double? {
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
