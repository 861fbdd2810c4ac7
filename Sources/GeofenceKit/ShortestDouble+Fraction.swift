/// The shortest decimal of a number with an integer part and a fraction (1 ≤ value < 2⁵³, not an integer), as
/// coordinates are, found with exact integer arithmetic: the same decimal as Schubfach's (``ShortestDouble/decimal(of:)``),
/// for about a third of its instructions, and no table.
///
/// Such a value is c / 2ⁿ, its 53-bit significand c over a power of two with 1 ≤ n ≤ 52. Its rounding interval is
/// c / 2ⁿ ± 1 / 2ⁿ⁺¹ (ends included when c is even; c is never a power of two here, as those are integers), and it
/// holds no integer: the integers nearest the value are doubles themselves, at least a unit in the last place away.
/// Scaled by P = 10ᴷ with K = 2 − ⌊−n·log₁₀2⌋ (3 … 18), as Dragonbox scales it (Junekey Jeon, "Dragonbox: A New
/// Floating-Point Binary-to-Decimal Conversion Algorithm", 2020), the interval is P / 2ⁿ units of 10⁻ᴷ wide, from
/// 100 up to under 1,000, and its ends are exact integers over 2ⁿ⁺¹ — (2c ± 1)·P < 2¹¹⁴ — with no rounding to
/// reason about. So:
/// - the interval holds at most one multiple of 1,000 units (10⁻⁽ᴷ⁻³⁾), the largest one under its upper end if
///   any: when it does, that is the shortest decimal (a shorter one would be such a multiple too), its trailing
///   zeros then trimmed;
/// - otherwise the shortest have K − 2 fraction digits, and the one nearest the value (ties to an even last digit,
///   as Schubfach's) lies strictly inside, the interval's half-width being over 50 units.
///
/// The integer part is the value's own (c shifted by n): the shortest decimal never lies across an integer from the
/// value, as that integer would then be in the interval.
extension ShortestDouble {
    /// The shortest decimal of `magnitude` (1 ≤ magnitude < 2⁵³) as its integer part (the value's own) and its
    /// fraction, `fraction` × 10^−`fractionDigits` without trailing zeros; nil when `magnitude` is an integer.
    @inlinable @inline(__always)
    static func fractionDecimal(of magnitude: Double) -> (integer: UInt64, fraction: UInt64, fractionDigits: Int)? {
        let n = 1075 &- Int(magnitude.exponentBitPattern)
        let c = magnitude.significandBitPattern | 1 << 52
        // n ≤ 0 from 2⁵² on; otherwise an integer has n trailing zero bits.
        guard n > 0, c & (1 << UInt64(n) &- 1) != 0 else { return nil }
        let k = 2 &- floorLog10Pow2(-n)
        let power = DecimalDigits.powerOfTen(k)
        // value × 10ᴷ = scaled / 2ⁿ; its upper end (value + 1 / 2ⁿ⁺¹) × 10ᴷ = upper / 2ⁿ⁺¹.
        let scaled = UInt128(c) &* UInt128(power)
        let upper = scaled &<< 1 &+ UInt128(power)
        let included = c & 1 == 0

        // The multiple of 1,000 units just under the upper end, `distance` (over 2ⁿ⁺¹) below it: inside when that
        // is at most the interval's width, 2·P over 2ⁿ⁺¹ (ends as the parity of c says).
        let units = UInt64(truncatingIfNeeded: upper &>> (n &+ 1))
        var thousands = units / 1_000
        let upperRest = UInt64(truncatingIfNeeded: upper) & (1 << UInt64(n &+ 1) &- 1)
        let distance = (units &- thousands &* 1_000) &<< UInt64(n &+ 1) | upperRest
        if (distance != 0 || included) && (distance < 2 &* power || (distance == 2 &* power && included)) {
            var fractionDigits = k &- 3
            while thousands % 10 == 0 {
                thousands /= 10
                fractionDigits &-= 1
            }
            return split(thousands, fractionDigits: fractionDigits, integer: c &>> UInt64(n))
        }

        // The multiple of 100 units nearest the value: `remainder` (over 2ⁿ) past the one below it.
        let valueUnits = UInt64(truncatingIfNeeded: scaled &>> n)
        let hundreds = valueUnits / 100
        let valueRest = UInt64(truncatingIfNeeded: scaled) & (1 << UInt64(n) &- 1)
        let remainder = (valueUnits &- hundreds &* 100) &<< UInt64(n) | valueRest
        let half: UInt64 = 50 &<< UInt64(n)
        let roundsUp = remainder > half || (remainder == half && hundreds & 1 == 1)
        return split(roundsUp ? hundreds &+ 1 : hundreds, fractionDigits: k &- 2, integer: c &>> UInt64(n))
    }

    /// `significand` × 10^−`fractionDigits` as its integer part, already known, and its fraction.
    @inlinable @inline(__always)
    static func split(_ significand: UInt64, fractionDigits: Int, integer: UInt64)
        -> (integer: UInt64, fraction: UInt64, fractionDigits: Int)
    {
        (integer, significand &- integer &* DecimalDigits.powerOfTen(fractionDigits), fractionDigits)
    }
}
