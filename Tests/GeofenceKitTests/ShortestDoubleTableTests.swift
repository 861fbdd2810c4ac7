import Testing

@testable import GeofenceKit

/// ``ShortestDouble``'s table of powers of ten, a list of literals, recomputed entry by entry with exact integer
/// arithmetic: g(k) = ⌊10⁻ᵏ·2⁻ʳ⌋ + 1 with 2¹²⁵ ≤ 10⁻ᵏ·2⁻ʳ < 2¹²⁶, split into its high and low 63 bits.
@Suite struct ShortestDoubleTableTests {
    @Test func everyEntryIsTheExactScaledPowerOfTen() {
        let minimumK = ShortestDouble.minimumK
        let maximumK = ShortestDouble.maximumK
        #expect(ShortestDouble.table.count == 2 * (maximumK - minimumK + 1))
        var expected = [UInt64](repeating: 0, count: 2 * (maximumK - minimumK + 1))
        func store(_ k: Int, _ floor: (high: UInt64, low: UInt64)) {
            // g = floor + 1, as a 126-bit number: high·2⁶⁴ + low.
            let (low, carry) = floor.low.addingReportingOverflow(1)
            let high = floor.high + (carry ? 1 : 0)
            expected[2 * (k - minimumK)] = high << 1 | low >> 63
            expected[2 * (k - minimumK) + 1] = low & ShortestDouble.mask63
        }
        var power = Natural(1)  // 10^e
        for e in 0 ... -minimumK {
            // k = −e: 10^e scaled to 126 bits is its top 126 bits.
            let shift = power.bitWidth - 126
            store(-e, (power.word(atBit: shift + 64), power.word(atBit: shift)))
            // k = e: 10^−e·2⁻ʳ = 2ⁿ / 10^e with n = 125 − ⌊−e·log₂10⌋.
            if e > 0 && e <= maximumK {
                store(e, Natural.quotientOfPowerOfTwo(125 - ShortestDouble.floorLog2Pow10(-e), by: power))
            }
            power.multiply(by: 10)
        }
        for k in minimumK...maximumK {
            let (g1, g0) = ShortestDouble.scaledPowerOfTen(k)
            #expect(g1 == expected[2 * (k - minimumK)] && g0 == expected[2 * (k - minimumK) + 1], "k = \(k)")
        }
    }
}

/// A non-negative integer of any size (64-bit limbs, least significant first): just what the table needs.
struct Natural {
    var limbs: [UInt64]

    init(_ value: UInt64) { limbs = [value] }

    var bitWidth: Int {
        guard let top = limbs.lastIndex(where: { $0 != 0 }) else { return 0 }
        return top * 64 + 64 - limbs[top].leadingZeroBitCount
    }

    func bit(_ index: Int) -> UInt64 {
        guard index >= 0, index < limbs.count * 64 else { return 0 }
        return limbs[index / 64] >> UInt64(index % 64) & 1
    }

    /// Bits `offset ..< offset + 64` (those below 0 read as 0).
    func word(atBit offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for j in 0..<64 { word |= bit(offset + j) << UInt64(j) }
        return word
    }

    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let (high, low) = limbs[i].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            limbs[i] = sum
            carry = high + (overflow ? 1 : 0)
        }
        if carry != 0 { limbs.append(carry) }
    }

    mutating func doubleInPlace() {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let next = limbs[i] >> 63
            limbs[i] = limbs[i] << 1 | carry
            carry = next
        }
        if carry != 0 { limbs.append(carry) }
    }

    static func >= (lhs: Natural, rhs: Natural) -> Bool {
        for i in (0..<max(lhs.limbs.count, rhs.limbs.count)).reversed() {
            let a = i < lhs.limbs.count ? lhs.limbs[i] : 0
            let b = i < rhs.limbs.count ? rhs.limbs[i] : 0
            if a != b { return a > b }
        }
        return true
    }

    /// `self − other`, for `self >= other`.
    mutating func subtract(_ other: Natural) {
        var borrow = false
        for i in limbs.indices {
            let b = i < other.limbs.count ? other.limbs[i] : 0
            let (d1, o1) = limbs[i].subtractingReportingOverflow(b)
            let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
            limbs[i] = d2
            borrow = o1 || o2
        }
    }

    /// ⌊2ⁿ / divisor⌋ for a divisor that is not a power of two and a quotient of 126 bits at most, by long
    /// division: 2^(width−1) < divisor leaves quotient 0, then each further bit of 2ⁿ (all zeros) doubles the
    /// remainder.
    static func quotientOfPowerOfTwo(_ n: Int, by divisor: Natural) -> (high: UInt64, low: UInt64) {
        let width = divisor.bitWidth
        var remainder = Natural(1)
        for _ in 0..<(width - 1) { remainder.doubleInPlace() }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for _ in 0..<(n - width + 1) {
            remainder.doubleInPlace()
            high = high << 1 | low >> 63
            low <<= 1
            if remainder >= divisor {
                remainder.subtract(divisor)
                low |= 1
            }
        }
        return (high, low)
    }
}
