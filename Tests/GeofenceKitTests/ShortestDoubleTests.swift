import Testing

@testable import GeofenceKit

/// ``ShortestDouble`` against Swift's own `description` (itself the shortest round-trip text): the same characters
/// for random bit patterns, coordinates, and every edge where digit counts, exponents or layouts change.
@Suite struct ShortestDoubleTests {
    static func text(_ value: Double) -> String {
        var bytes: [UInt8] = []
        ShortestDouble.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks `values` and returns the first few that differ from `description` or do not read back.
    static func mismatches(_ values: some Sequence<Double>) -> [String] {
        var found: [String] = []
        for value in values {
            let ours = text(value)
            let roundTrips = value.isNaN ? Double(ours)?.isNaN == true : Double(ours) == value
            if ours != value.description || !roundTrips {
                found.append("\(value.description) (bits \(value.bitPattern)): \(ours)")
                if found.count == 10 { break }
            }
        }
        return found
    }

    @Test func specialValuesSpellLikeDescription() {
        #expect(Self.text(0) == "0.0")
        #expect(Self.text(-0.0) == "-0.0")
        #expect(Self.text(.nan) == "nan")
        #expect(Self.text(.infinity) == "inf")
        #expect(Self.text(-.infinity) == "-inf")
        #expect(Self.text(25.0478) == "25.0478")
        #expect(Self.text(-121.517) == "-121.517")
        #expect(Self.text(0.0001) == "0.0001")
        #expect(Self.text(0.00001) == "1e-05")
        #expect(Self.text(9_007_199_254_740_992) == "9007199254740992.0")
        #expect(Self.text(9_007_199_254_740_994) == "9.007199254740994e+15")
        #expect(Self.text(.leastNonzeroMagnitude) == "5e-324")
        #expect(Self.text(.greatestFiniteMagnitude) == "1.7976931348623157e+308")
    }

    @Test func appendsAfterWhatTheBufferHolds() {
        var bytes = Array("lat:".utf8)
        ShortestDouble.append(-33.8688, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "lat:-33.8688")
    }

    @Test func randomBitPatternsMatchDescription() {
        var rng = SplitMix64(seed: 15)
        let values = (0..<300_000).lazy.map { _ in Double(bitPattern: rng.next()) }
        #expect(Self.mismatches(values) == [])
    }

    @Test func coordinatesMatchDescription() {
        var rng = SplitMix64(seed: 16)
        let full = (0..<100_000).lazy.map { _ in rng.uniform(-180...180) }
        #expect(Self.mismatches(full) == [])
        // Short decimals, as users type them: 25.0478, 121.5, …
        var short = SplitMix64(seed: 17)
        let typed = (0..<100_000).lazy.map { i in
            Double(Int64(short.next() % 36_000_000_000) - 18_000_000_000) / [1e2, 1e4, 1e6, 1e8][i % 4]
        }
        #expect(Self.mismatches(typed) == [])
    }

    @Test func powersOfTwoAndTenAndTheirNeighboursMatchDescription() {
        var values: [Double] = []
        for exponent in -1074...1023 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values += [power, power.nextUp, power.nextDown, -power]
        }
        for exponent in -323...308 {
            guard let power = Double("1e\(exponent)") else { continue }
            values += [power, power.nextUp, power.nextDown, 5 * power, 9.999999999999999 * power]
        }
        #expect(Self.mismatches(values) == [])
    }

    @Test func subnormalsMatchDescription() {
        // The smallest ones, where the rounding interval allows several digits fewer, all of them; then random.
        #expect(Self.mismatches((1..<20_000 as Range<UInt64>).lazy.map(Double.init(bitPattern:))) == [])
        var rng = SplitMix64(seed: 18)
        let random = (0..<50_000).lazy.map { _ in Double(bitPattern: rng.next() & (1 << 52 - 1)) }
        #expect(Self.mismatches(random) == [])
        #expect(Self.mismatches([Double.leastNormalMagnitude, Double.leastNormalMagnitude.nextDown]) == [])
    }

    @Test func integersAndLayoutBoundariesMatchDescription() {
        var values: [Double] = [1, 10, 100, 123_456, 1e15, 1e16, 2e22, 1e23, 0.001, 0.00012, 9.999e-5]
        var rng = SplitMix64(seed: 19)
        for _ in 0..<20_000 { values.append(Double(rng.next() >> UInt64(rng.next() % 64))) }
        #expect(Self.mismatches(values + values.map { -$0 }) == [])
    }

    /// A property over random doubles of every kind at once: each reads back as itself and spells as
    /// `description` does.
    @Test func randomDoublesOfEveryKindRoundTripAndSpellLikeDescription() {
        var rng = SplitMix64(seed: 23)
        func randomValue() -> Double {
            let sign: Double = rng.next() & 1 == 0 ? 1 : -1
            switch rng.next() % 8 {
            case 0: return sign * Double(bitPattern: rng.next() & (1 << 52 - 1))  // subnormal (or zero)
            case 1: return sign * Double(rng.next() >> (rng.next() % 64))  // an integer, up to 2⁶⁴
            case 2: return sign * 0.0  // ±0
            case 3:  // huge: the top binades
                return Double(sign: sign < 0 ? .minus : .plus, exponent: 1000 + Int(rng.next() % 24),
                    significand: 1 + Double(rng.next() >> 12) / 0x1p52)
            case 4:  // tiny but normal: the bottom binades
                return Double(sign: sign < 0 ? .minus : .plus, exponent: -1022 + Int(rng.next() % 24),
                    significand: 1 + Double(rng.next() >> 12) / 0x1p52)
            case 5: return sign * rng.uniform(0...180)  // a coordinate
            case 6: return sign * Double(rng.next() % 1_000_000) / 1_000  // a short decimal, as typed
            default: return Double(bitPattern: rng.next())  // any bit pattern (NaN and infinities too)
            }
        }
        let values = (0..<200_000).map { _ in randomValue() }
        #expect(Self.mismatches(values) == [])
    }
}
