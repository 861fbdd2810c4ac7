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

    @Test func outsideItsRangeItDeclines() {
        #expect(DecimalConversion.double(mantissa: 0, negativePowerOfTen: 3) == nil)
        #expect(DecimalConversion.double(mantissa: 12345, negativePowerOfTen: 28) == nil)
        #expect(DecimalConversion.double(mantissa: 12345, negativePowerOfTen: -1) == nil)
        #expect(DecimalConversion.double(mantissa: 12345, negativePowerOfTen: 2) == 123.45)
    }
}
