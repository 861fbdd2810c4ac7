import Testing

@testable import GeofenceKit

/// ``ShortestDouble/fractionDigits(of:)``, the exact shortcut for numbers with an integer part and a fraction,
/// against Schubfach (``ShortestDouble/trimmedDecimal(of:)``) and `description`: the same decimal for every kind of
/// such number, and nil for integers.
@Suite struct ShortestDoubleFractionTests {
    /// The first few values (1 ≤ |value| < 2⁵³) whose shortcut differs from Schubfach's decimal or whose text is not
    /// `description`'s.
    static func mismatches(_ values: some Sequence<Double>) -> [String] {
        var found: [String] = []
        for value in values {
            let magnitude = value.magnitude
            let schubfach = ShortestDouble.trimmedDecimal(of: magnitude)
            let digits = ShortestDouble.fractionDigits(of: magnitude)
            let shortcut = digits.flatMap(Self.decimal)
            let agrees =
                if let shortcut {
                    schubfach.exponent < 0 && shortcut.fractionDigits == -schubfach.exponent
                        && shortcut.integer == UInt64(magnitude) && shortcut.fraction < DecimalDigits.powerOfTen(shortcut.fractionDigits)
                        && shortcut.integer * DecimalDigits.powerOfTen(shortcut.fractionDigits) + shortcut.fraction
                            == schubfach.significand
                } else {
                    // No answer, or sixteen digits that are no fraction.
                    digits == nil && schubfach.exponent >= 0 && magnitude == magnitude.rounded()
                }
            if !agrees || ShortestDoubleTests.text(value) != value.description {
                found.append("\(value.description) (bits \(value.bitPattern)): \(String(describing: shortcut))")
                if found.count == 10 { break }
            }
        }
        return found
    }

    /// ``ShortestDouble/fractionDigits(of:)``'s answer as an integer part and a fraction of `fractionDigits` digits
    /// (nil when its sixteen digits are not that many digits and zeros, or the last of them is 0).
    static func decimal(_ digits: (integer: UInt64, sixteen: UInt64, digits: Int))
        -> (integer: UInt64, fraction: UInt64, fractionDigits: Int)?
    {
        guard (1...16).contains(digits.digits), digits.sixteen < DecimalDigits.powerOfTen(16) else { return nil }
        let scale = DecimalDigits.powerOfTen(16 - digits.digits)
        let fraction = digits.sixteen / scale
        guard fraction * scale == digits.sixteen, fraction % 10 != 0 else { return nil }
        return (digits.integer, fraction, digits.digits)
    }

    /// A double of the binade 2ᵉ (0 ≤ e ≤ 52) with a random significand whose lowest set bit is `lowestBit`.
    static func value(binade: Int, significand: UInt64, lowestBit: Int) -> Double {
        let bits = significand & (1 << 52 - 1) & ~(1 << UInt64(lowestBit) - 1) | 1 << UInt64(lowestBit)
        return Double(sign: .plus, exponent: binade, significand: Double(bitPattern: 0x3FF0_0000_0000_0000 | bits))
    }

    @Test func randomNumbersOfEveryBinadeMatchSchubfach() {
        var rng = SplitMix64(seed: 151)
        let values = (0..<600_000).lazy.map { _ in
            Double(sign: rng.next() & 1 == 0 ? .plus : .minus, exponent: Int(rng.next() % 53),
                significand: Double(bitPattern: 0x3FF0_0000_0000_0000 | rng.next() >> 12))
        }
        #expect(Self.mismatches(values) == [])
    }

    @Test func coordinatesMatchSchubfach() {
        var rng = SplitMix64(seed: 152)
        let full = (0..<400_000).lazy.map { _ in rng.uniform(-180...180) }.filter { $0.magnitude >= 1 }
        #expect(Self.mismatches(full) == [])
        // Decimals as typed (25.0478, 121.5) and the doubles next to them.
        var typed = SplitMix64(seed: 153)
        let short = (0..<200_000).lazy.map { i in
            let value = Double(Int64(typed.next() % 18_000_000_000) + 100_000_000) / [1e2, 1e4, 1e6, 1e8][i % 4]
            return [value, value.nextUp, value.nextDown][i % 3]
        }
        #expect(Self.mismatches(short) == [])
    }

    /// Significands with few set bits are exact decimals of few digits, where the value can lie halfway between two
    /// shortest candidates (a tie, to the even one) or on a multiple of a power of ten.
    @Test func exactBinaryFractionsAndTiesMatchSchubfach() {
        var rng = SplitMix64(seed: 154)
        var values: [Double] = []
        for binade in 0...52 {
            for lowestBit in 0..<(52 - binade) {
                for _ in 0..<40 {
                    values.append(Self.value(binade: binade, significand: rng.next(), lowestBit: lowestBit))
                }
            }
        }
        #expect(values.count > 50_000)
        #expect(Self.mismatches(values) == [])
    }

    @Test func integersAndTheirNeighboursMatchSchubfach() {
        var values: [Double] = [1, 1.5, 2.5, 9.5, 10, 0x1p52, 0x1p52 + 1, 0x1p53.nextDown, 0x1p52.nextDown, 0x1p52 - 0.5]
        var rng = SplitMix64(seed: 155)
        for _ in 0..<50_000 {
            let integer = Double(rng.next() >> UInt64(11 + rng.next() % 53) | 1)
            values += [integer, integer.nextUp, integer.nextDown, integer + 0.5]
        }
        for exponent in 0...15 {
            let power = Double("1e\(exponent)")!
            var up = power
            var down = power
            for _ in 0..<20 {
                up = up.nextUp
                down = down.nextDown
                values += [up, down, 9.999999999999999 * power, 5 * power + 0.5]
            }
        }
        #expect(Self.mismatches(values.filter { $0 >= 1 && $0 < 0x1p53 }) == [])
    }

    @Test func integersHaveNoFractionDecimal() {
        for value in [1.0, 2, 3, 1e15, 0x1p52, 0x1p53.nextDown, 4_503_599_627_370_495] {
            #expect(ShortestDouble.fractionDigits(of: value) == nil)
        }
    }
}
