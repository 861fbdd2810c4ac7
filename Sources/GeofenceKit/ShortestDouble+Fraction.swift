/// The shortest decimal of a number with an integer part and a fraction (1 ≤ value < 2⁵², not an integer), as
/// coordinates are, found with exact integer arithmetic: the same decimal as Schubfach's (``ShortestDouble/decimal(of:)``),
/// for a fraction of its instructions, and no table.
///
/// Such a value is I + f / 2ⁿ: its integer part I and the fraction's bits f (0 < f < 2ⁿ) of its 53-bit significand
/// c = I·2ⁿ + f, with 1 ≤ n ≤ 52. Its rounding interval is (2f ± 1) / 2ⁿ⁺¹ past I (ends included when c is even;
/// c is never a power of two here, as those are integers), and it holds no integer: the integers nearest the value
/// are doubles themselves, at least a unit in the last place away. So the shortest decimal has the value's own
/// integer part, and only the fraction is searched. With K = 2 − ⌊−n·log₁₀2⌋ (3 … 18), as Dragonbox scales it
/// (Junekey Jeon, "Dragonbox: A New Floating-Point Binary-to-Decimal Conversion Algorithm", 2020), the interval is
/// 10ᴷ / 2ⁿ units of 10⁻ᴷ wide, from 100 up to under 1,000, so:
/// - it holds at most one multiple of 1,000 units (10⁻⁽ᴷ⁻³⁾), the largest one under its upper end if any: when it
///   does, that is the shortest decimal (a shorter one would be such a multiple too), its trailing zeros being those
///   of its digits. The upper end is (2f + 1)·10ᴷ⁻³ / 2ⁿ⁺¹ in those multiples: one exact product, whose quotient by
///   2ⁿ⁺¹ is the multiple and whose remainder is its distance below the end;
/// - otherwise the shortest have K − 2 fraction digits, and the one nearest the value (ties to an even last digit,
///   as Schubfach's) lies strictly inside, the interval's half-width being over 50 units: f·10ᴷ⁻² / 2ⁿ rounded, from
///   a second exact product.
/// Both products are under 2¹⁰⁷ and their quotients under 10¹⁶ (a word), with no rounding to reason about.
///
/// Neither lies on an integer (the interval holds none), so the fraction found has at most K − 2 ≤ 16 digits and
/// is not zero. It is returned as sixteen digits (scaled up by the powers of ten it lacks), which is how it is
/// written, with its length: K − 2 for the nearest (its last digit is not 0, or the interval would hold a multiple of
/// 1,000 units), K − 3 less the multiple's trailing zeros for the other, trimmed only when it has any.
extension ShortestDouble {
    /// The shortest decimal of `magnitude` when it is a number with an integer part and a fraction below 2⁵²: its
    /// integer part (the value's own), its fraction as sixteen digits, `sixteen` × 10⁻¹⁶, and how many of them it
    /// has (the rest are zeros); nil for any other value (an integer, below 1, from 2⁵² on, zero, infinite or NaN).
    @inlinable @inline(__always)
    static func fractionDigits(of magnitude: Double) -> (integer: UInt64, sixteen: UInt64, digits: Int)? {
        // n = 1075 − the biased exponent: 1 … 52 exactly for 1 ≤ magnitude < 2⁵² (one unsigned comparison).
        let n = 1075 &- Int(magnitude.exponentBitPattern)
        guard UInt(bitPattern: n &- 1) < 52 else { return nil }
        let shift = UInt64(truncatingIfNeeded: n)
        let c = magnitude.significandBitPattern | 1 << 52
        let below: UInt64 = 1 &<< shift &- 1
        let f = c & below
        guard f != 0 else { return nil }
        let k = 2 &- floorLog10Pow2(-n)
        // The sixteen digits of K − 2 fraction digits are their value × 10^(18 − K).
        let toSixteen = DecimalDigits.powerOfTen(18 &- k)
        let odd = c & 1

        // (2f + 1)·10ᴷ⁻³ = thousands·2ⁿ⁺¹ + distance: the multiple of 1,000 units just under the upper end, and how
        // far below it that is (over 2ⁿ⁺¹, in multiples). As n + 1 < 64 the 128-bit product is shifted as two words.
        let thousandth = DecimalDigits.powerOfTen(k &- 3)
        let upper = (f &<< 1 | 1).multipliedFullWidth(by: thousandth)
        let thousands = upper.low &>> (shift &+ 1) | upper.high &<< (63 &- shift)
        let distance = upper.low & (below &<< 1 | 1)
        // The multiple is inside when the distance is at most the interval's width, 2·10ᴷ⁻³ over 2ⁿ⁺¹, its ends
        // inside when c is even. That is 0 < distance < 2·10ᴷ⁻³ for an odd c and distance ≤ 2·10ᴷ⁻³ for an even
        // one, compared at once: the odd case subtracts 1 from both sides, and a distance of 0 then wraps to the
        // largest word.
        if distance &- odd < 2 &* thousandth &+ 1 &- 2 &* odd {
            return (c &>> shift, thousands &* 10 &* toSixteen, k &- 3 &- trailingZeros(of: thousands))
        }

        // f·10ᴷ⁻² = hundreds·2ⁿ + remainder: the multiple of 100 units under the value, and how far past it.
        let scaled = f.multipliedFullWidth(by: thousandth &* 10)
        let hundreds = scaled.low &>> shift | scaled.high &<< (64 &- shift)
        let remainder = scaled.low & below
        let half: UInt64 = 1 &<< (shift &- 1)
        // Over half way, or half way from an odd last digit (ties to even): an odd one adds 1 to the remainder.
        let roundsUp = remainder &+ (hundreds & 1) > half
        return (c &>> shift, (roundsUp ? hundreds &+ 1 : hundreds) &* toSixteen, k &- 2)
    }

    /// The decimal zeros `value` (> 0) ends with: mostly none, found with one test.
    @inlinable @inline(__always)
    static func trailingZeros(of value: UInt64) -> Int {
        guard value % 10 == 0 else { return 0 }
        var (rest, zeros) = (value / 10, 1)
        while rest % 10 == 0 {
            rest /= 10
            zeros &+= 1
        }
        return zeros
    }
}
