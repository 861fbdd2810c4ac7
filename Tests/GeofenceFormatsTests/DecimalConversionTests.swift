import Foundation
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// Decimal fractions of up to 19 digits convert to the same `Double` as the standard library's correctly rounded
/// parser gives, through the scanner as the decoders read them.
@Suite struct DecimalConversionTests {
    /// What the JSON scanner reads from `text`.
    private func scanned(_ text: String) throws -> Double {
        try Array(text.utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            return try scanner.readNumber().value
        }
    }

    /// Seeded random fractions: 16 to 19 significant digits, 0 to 27 of them after the point, either sign.
    @Test func randomFullPrecisionFractionsMatchTheStandardParser() throws {
        var random = SplitMix64(seed: 2026)
        var mismatches: [String] = []
        for _ in 0..<200_000 {
            let digits = 16 + Int(random.next() % 4)
            var text = String(1 + random.next() % 9)
            for _ in 1..<digits { text.append(String(random.next() % 10)) }
            let point = Int(random.next() % UInt64(min(digits, 27) + 1))
            if point > 0 {
                text.insert(".", at: text.index(text.endIndex, offsetBy: -point))
                if text.first == "." { text = "0" + text }
            }
            if random.next() % 2 == 0 { text = "-" + text }
            let expected = try #require(Double(text))
            if try scanned(text) != expected { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Values whose 54th bit and what follows make a tie, or fall just either side of one.
    @Test(arguments: [
        "9007199254740993", "9007199254740993.0", "9007199254740992.5", "9007199254740994.5",
        "0.30000000000000004", "0.1000000000000000055511151231257827", "25.047812345678903", "121.51712345678901",
        "179.99999999999997", "-89.999999999999986", "0.000000000000000000000000001", "1844674407370955.1615",
        "1.7976931348623157", "4.9406564584124654",
    ])
    func tiesAndNearTiesRoundAsTheStandardParserDoes(text: String) throws {
        #expect(try scanned(text) == Double(text))
    }

    /// The multiplication by a reciprocal gives the division's value wherever it answers: seeded mantissas of every
    /// bit length with every power, and ties (and their neighbours) built on purpose for the powers where a tie can
    /// occur (`5^k` must divide a mantissa of more than 53 bits). Exact small values, which the callers convert by
    /// Clinger's fast path instead, it mostly leaves to the division.
    @Test func theMultiplicationAgreesWithTheDivision() {
        var random = SplitMix64(seed: 15)
        var mantissas: [UInt64] = []
        for _ in 0..<100_000 {
            let bits = 1 + Int(random.next() % 64)
            mantissas.append(max(1, random.next() >> UInt64(64 - bits)))
        }
        for k in 0...4 {
            let power = UInt64(pow(5.0, Double(k)))
            for _ in 0..<2_000 {
                // (2n + 1) · 2^s · 5^k with 54 to 64 bits: a tie between two doubles once divided by 10^k.
                let odd = (random.next() >> 10) | 1 | (1 << 53)
                let tie = odd.multipliedReportingOverflow(by: power)
                guard !tie.overflow else { continue }
                mantissas += [tie.partialValue, tie.partialValue - 1, tie.partialValue + 1]
            }
        }
        var mismatches: [(UInt64, Int)] = []
        for mantissa in mantissas {
            for k in 0...DecimalConversion.maximumNegativeExponent {
                guard let product = DecimalConversion.multiplied(mantissa: mantissa, negativePowerOfTen: k) else {
                    continue
                }
                if product != DecimalConversion.divided(mantissa: mantissa, negativePowerOfTen: k) {
                    mismatches.append((mantissa, k))
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// The files workload's kind of coordinate, 17 significant digits with 13 to 15 after the point: the
    /// multiplication answers all but about one in 500 (those whose product ends in nine ones).
    @Test func fullPrecisionCoordinatesTakeTheMultiplication() {
        var random = SplitMix64(seed: 17)
        var declined = 0
        var mismatches = 0
        for _ in 0..<100_000 {
            let mantissa = 10_000_000_000_000_000 + random.next() % 90_000_000_000_000_000
            let k = 13 + Int(random.next() % 3)
            if DecimalConversion.multiplied(mantissa: mantissa, negativePowerOfTen: k) == nil { declined += 1 }
            if DecimalConversion.double(mantissa: mantissa, negativePowerOfTen: k)
                != DecimalConversion.divided(mantissa: mantissa, negativePowerOfTen: k)
            {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(declined < 1_000, "declined \(declined)")
    }

    /// The reciprocals' literals are `⌊2^(127 + z) / 5^k⌋ + 1`, computed here by long division one word at a time.
    @Test func theReciprocalsOfFiveAreTheirDefinition() {
        for k in 0...DecimalConversion.maximumNegativeExponent {
            let power = DecimalConversion.powersOfFive[k]
            let z = k == 0 ? 0 : 64 - (power - 1).leadingZeroBitCount
            var words: [UInt64] = [0, 0, 0]  // 2^(127 + z), most significant word first
            words[2 - (127 + z) / 64] = 1 << UInt64((127 + z) % 64)
            var remainder: UInt64 = 0
            var quotient: [UInt64] = []
            for word in words {
                let (q, r) = power.dividingFullWidth((high: remainder, low: word))
                quotient.append(q)
                remainder = r
            }
            let (low, carry) = quotient[2].addingReportingOverflow(1)
            #expect(quotient[0] == 0 && quotient[1] >> 63 == 1, "k = \(k)")
            #expect(DecimalConversion.reciprocalsOfFiveHigh[k] == quotient[1] &+ (carry ? 1 : 0), "k = \(k)")
            #expect(DecimalConversion.reciprocalsOfFiveLow[k] == low, "k = \(k)")
        }
    }

    @Test func outsideItsRangeItDeclines() {
        #expect(DecimalConversion.double(mantissa: 0, negativePowerOfTen: 3) == nil)
        #expect(DecimalConversion.double(mantissa: 12345, negativePowerOfTen: 28) == nil)
        #expect(DecimalConversion.double(mantissa: 12345, negativePowerOfTen: -1) == nil)
        #expect(DecimalConversion.double(mantissa: 12345, negativePowerOfTen: 2) == 123.45)
    }
}
