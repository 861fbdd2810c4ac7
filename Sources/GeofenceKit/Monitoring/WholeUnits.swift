/// Distances in whole clearance units (``PackedRegion/clearanceUnit``), rounded to the safe side, and the plane's
/// whole degree (``MidLatitudePlane/sinCos(degrees:)``), without the checks of `Int(_:)`.
///
/// `Int(_:)` of a `Double` traps on NaN, infinities and values beyond `Int`'s range: about ten instructions around
/// the one conversion, which the exact path paid at every slot it tested. The values converted here are known to
/// lie in 0…2⁵⁰. Adding 1.5·2⁵² to such a value rounds it to the nearest integer (the sum's unit in the last place is
/// 1) and leaves that integer plus 2⁵¹ in the sum's 52 significand bits. Shifting the value by half a unit first
/// turns the nearest integer into a bound on the side each caller needs: a clearance is rounded down, a distance
/// moved up. Both are within one unit of the value (a whole number may come out one unit further, ties rounding
/// to even), which only tests a slot a little earlier.
enum WholeUnits {
    /// An integer n with x − 1 ≤ n ≤ x, for 0 ≤ x ≤ 2⁵⁰.
    @inline(__always)
    static func atMost(_ x: Double) -> Int { nearest(x - 0.5) }

    /// An integer n with x ≤ n ≤ x + 1, for 0 ≤ x ≤ 2⁵⁰.
    @inline(__always)
    static func atLeast(_ x: Double) -> Int { nearest(x + 0.5) }

    /// ⌊x⌋ (what `Int(x)` gives), for 0 ≤ x ≤ 2⁵⁰: the nearest integer, less one where that lies above x.
    @inline(__always)
    static func floor(_ x: Double) -> Int {
        let n = nearest(x)
        return Double(n) > x ? n &- 1 : n
    }

    /// The integer nearest y (ties to even), for |y| ≤ 2⁵¹.
    @inline(__always)
    private static func nearest(_ y: Double) -> Int {
        let significand = (y + 0x1.8p52).bitPattern & 0x000F_FFFF_FFFF_FFFF
        return Int(truncatingIfNeeded: significand) &- (1 << 51)
    }
}
