import Testing

@testable import GeofenceKit

/// ``DecimalDigits`` against `String(value)`: digit counts at every power of ten, the eight-at-once split, and
/// leading zeros when asked for more digits than the number has.
@Suite struct DecimalDigitsTests {
    static func text(_ value: UInt64, count: Int? = nil) -> String {
        var bytes = [UInt8](repeating: 0, count: 24)
        let length = bytes.withUnsafeMutableBufferPointer { buffer in
            if let count {
                DecimalDigits.write(value, count: count, at: buffer.baseAddress!)
                return count
            }
            return DecimalDigits.write(value, at: buffer.baseAddress!)
        }
        return String(decoding: bytes[..<length], as: UTF8.self)
    }

    @Test func countsAndWritesEveryPowerOfTenAndItsNeighbours() {
        var power: UInt64 = 1
        for exponent in 0...19 {
            for value in [power - 1, power, power + 1] {
                #expect(DecimalDigits.count(value) == String(value).count, "\(value)")
                #expect(Self.text(value) == String(value))
            }
            if exponent < 19 { power *= 10 }
        }
        #expect(Self.text(.max) == String(UInt64.max))
        #expect(Self.text(0) == "0")
    }

    @Test func writesRandomNumbersOfEveryLength() {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<50_000 {
            let value = rng.next() >> (rng.next() % 64)
            #expect(Self.text(value) == String(value))
        }
    }

    /// Writes each value with `write` into `width` bytes and expects its decimal text, zero-padded to `width`.
    static func expectZeroPadded<Value: BinaryInteger>(
        _ values: [Value], width: Int, _ write: (Value, UnsafeMutablePointer<UInt8>) -> Void
    ) {
        for value in values {
            var bytes = [UInt8](repeating: 0, count: width)
            bytes.withUnsafeMutableBufferPointer { write(value, $0.baseAddress!) }
            let expected = String(repeating: "0", count: width - String(value).count) + String(value)
            #expect(String(decoding: bytes, as: UTF8.self) == expected)
        }
    }

    @Test func writesSixteenDigitsAtOnceWithLeadingZeros() {
        var rng = SplitMix64(seed: 23)
        let values: [UInt64] = [0, 1, 99_999_999, 100_000_000, 9_999_999_999_999_999]
            + (0..<20_000).map { _ in rng.next() % 10_000_000_000_000_000 >> (rng.next() % 54) }
        Self.expectZeroPadded(values, width: 16) { DecimalDigits.writeSixteen($0, at: $1) }
    }

    @Test func powersOfTenAreEveryOneAUInt64Holds() {
        var power: UInt64 = 1
        for exponent in 0...19 {
            #expect(DecimalDigits.powerOfTen(exponent) == power)
            if exponent < 19 { power *= 10 }
        }
    }

    @Test func writesEightDigitsAtOnceWithLeadingZeros() {
        var rng = SplitMix64(seed: 22)
        let values: [UInt32] = [0, 1, 9, 10, 99, 100, 9_999, 10_000, 12_345_678, 99_999_999]
            + (0..<20_000).map { _ in UInt32(rng.next() % 100_000_000) }
        Self.expectZeroPadded(values, width: 8) { DecimalDigits.writeEight($0, at: $1) }
    }

    /// ``DecimalDigits/eightDigits(_:)`` splits the two 4-digit halves in lanes of their own, which do not carry
    /// into each other: every half in both lanes, beside every other half, is every case of each lane.
    @Test func splitsEveryFourDigitHalfInBothLanes() {
        let values = (0..<10_000 as Range<UInt32>).flatMap { [$0 * 10_000 + $0, $0 * 10_000 + 9_999 - $0] }
        Self.expectZeroPadded(values, width: 8) { DecimalDigits.writeEight($0, at: $1) }
    }

    @Test func writesEveryNumberUpToThreeDigitsFromThePairs() {
        for value in 0..<1_000 as Range<UInt64> {
            let (digits, count) = DecimalDigits.upToThreeDigits(value)
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: digits >> (8 * UInt64($0))) }
            #expect(String(decoding: bytes.prefix(count), as: UTF8.self) == String(value))
            #expect(bytes.dropFirst(count).allSatisfy { $0 == 0 })
        }
    }

    @Test func writesEveryNumberUpToEightDigitsInOneWord() {
        var rng = SplitMix64(seed: 24)
        let values: [UInt64] = [0, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000, 9_999_999, 10_000_000, 99_999_999]
            + (0..<20_000).map { _ in rng.next() % 100_000_000 >> (rng.next() % 27) }
        for value in values {
            let (digits, count) = DecimalDigits.upToEightDigits(value)
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: digits >> (8 * UInt64($0))) }
            #expect(String(decoding: bytes.prefix(count), as: UTF8.self) == String(value))
            #expect(bytes.dropFirst(count).allSatisfy { $0 == 0 })
        }
    }

    @Test func padsWithZerosToTheCountAskedFor() {
        #expect(Self.text(5, count: 2) == "05")
        #expect(Self.text(42, count: 6) == "000042")
        #expect(Self.text(123_456_789, count: 12) == "000123456789")
        #expect(Self.text(1_234_567_890_123, count: 17) == "00001234567890123")
    }
}
