import Foundation
import Testing

@testable import GeofenceFormats
import GeofenceKit

@Suite struct TimestampISO8601Tests {
    static let formatted: [(Int64, String)] = [
        (0, "1970-01-01T00:00:00Z"),
        (1_795_248_042_000_000, "2026-11-21T08:00:42Z"),
        (1_795_248_042_500_000, "2026-11-21T08:00:42.5Z"),
        (1_795_248_042_000_123, "2026-11-21T08:00:42.000123Z"),
        (1_795_248_042_120_000, "2026-11-21T08:00:42.12Z"),
        (1_709_210_096_000_000, "2024-02-29T12:34:56Z"),
        (951_782_400_000_000, "2000-02-29T00:00:00Z"),
        (-2_203_891_200_000_000, "1900-03-01T00:00:00Z"),
        (-14_182_940_000_000, "1969-07-20T20:17:40Z"),
        (-1, "1969-12-31T23:59:59.999999Z"),
        (-500_000, "1969-12-31T23:59:59.5Z"),
        (-62_135_596_800_000_000, "0001-01-01T00:00:00Z"),
        (253_402_300_799_999_999, "9999-12-31T23:59:59.999999Z"),
        (253_402_300_800_000_000, "+10000-01-01T00:00:00Z"),
        (-62_167_219_200_000_001, "-0001-12-31T23:59:59.999999Z"),
    ]

    @Test(arguments: formatted)
    func formatsUTCWithAFractionOnlyWhenThereIsOne(microseconds: Int64, text: String) {
        let timestamp = Timestamp(microseconds: microseconds)
        #expect(timestamp.iso8601 == text)
        var buffer: [UInt8] = Array("x".utf8)
        timestamp.appendISO8601(to: &buffer)
        #expect(buffer == Array(("x" + text).utf8))
    }

    @Test func formatsTheExtremesOfInt64WithoutTrapping() {
        #expect(Timestamp(microseconds: .max).iso8601.hasPrefix("+294247-01-10T04:00:54.775807Z"))
        #expect(Timestamp(microseconds: .min).iso8601.hasPrefix("-290308-12-21T19:59:05.224192Z"))
    }

    @Test func roundTripsThroughTextAcrossTheWholeRange() throws {
        var generator = SplitMix64(seed: 42)
        let range = Timestamp.textRange
        let span = UInt64(range.upperBound.microseconds - range.lowerBound.microseconds)
        for index in 0..<20_000 {
            var microseconds = range.lowerBound.microseconds + Int64(generator.next() % span)
            if index % 3 == 0 { microseconds -= microseconds % 1_000_000 }  // whole seconds too
            let timestamp = Timestamp(microseconds: microseconds)
            #expect(try Timestamp.parseISO8601(timestamp.iso8601) == timestamp)
        }
    }

    @Test func agreesWithFoundationsISO8601Formatter() throws {
        let formatter = ISO8601DateFormatter()
        var generator = SplitMix64(seed: 7)
        for _ in 0..<500 {
            // 1900…2100: Foundation's calendar and ours agree there (it switches to Julian dates before 1582).
            let seconds = -2_208_988_800 + Int64(generator.next() % 6_311_433_600)
            let timestamp = Timestamp(microseconds: seconds * 1_000_000)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(timestamp.iso8601 == formatter.string(from: date))
            let parsed = try #require(formatter.date(from: timestamp.iso8601))
            #expect(Int64(parsed.timeIntervalSince1970) == seconds)
        }
    }

    static let accepted: [(String, Int64)] = [
        ("2026-11-21T08:00:42Z", 1_795_248_042_000_000),
        ("2026-11-21t08:00:42z", 1_795_248_042_000_000),
        ("2026-11-21 08:00:42Z", 1_795_248_042_000_000),
        ("2026-11-21T16:00:42+08:00", 1_795_248_042_000_000),
        ("2026-11-21T16:00:42+0800", 1_795_248_042_000_000),
        ("2026-11-21T02:30:42-05:30", 1_795_248_042_000_000),
        ("2026-11-21T08:00:42-00:00", 1_795_248_042_000_000),
        ("2026-11-21T08:00:42.5Z", 1_795_248_042_500_000),
        ("2026-11-21T08:00:42,25Z", 1_795_248_042_250_000),
        ("2026-11-21T08:00:42.123456Z", 1_795_248_042_123_456),
        ("2026-11-21T08:00:42.1234565Z", 1_795_248_042_123_457),
        ("2026-11-21T08:00:42.12345649999Z", 1_795_248_042_123_456),
        ("2026-11-21T08:00:42.9999995Z", 1_795_248_043_000_000),
        ("2026-11-21T08:00:42.000000000000000001Z", 1_795_248_042_000_000),
        ("2016-12-31T23:59:60Z", 1_483_228_800_000_000),
        ("2016-12-31T23:59:60.5Z", 1_483_228_800_500_000),
        ("2024-02-29T12:34:56Z", 1_709_210_096_000_000),
        ("2000-02-29T00:00:00Z", 951_782_400_000_000),
        ("1969-12-31T23:59:59.999999Z", -1),
        ("0001-01-01T00:00:00Z", -62_135_596_800_000_000),
        ("9999-12-31T23:59:59.999999Z", 253_402_300_799_999_999),
    ]

    @Test(arguments: accepted)
    func parsesTheAcceptedForms(text: String, microseconds: Int64) throws {
        #expect(try Timestamp.parseISO8601(text) == Timestamp(microseconds: microseconds))
        #expect(Timestamp(iso8601: text) == Timestamp(microseconds: microseconds))
    }

    static let rejected: [(String, String)] = [
        ("2026-13-01T00:00:00Z", "month 13"),
        ("2026-00-01T00:00:00Z", "month 0"),
        ("2026-04-31T00:00:00Z", "day 31"),
        ("2026-02-29T00:00:00Z", "day 29 is not 01–28"),
        ("1900-02-29T00:00:00Z", "day 29"),
        ("2026-11-00T00:00:00Z", "day 0"),
        ("2026-11-21T24:00:00Z", "hour 24"),
        ("2026-11-21T08:60:00Z", "minute 60"),
        ("2026-11-21T08:00:61Z", "second 61"),
        ("2026-11-21T08:00:42", "no time zone"),
        ("2026-11-21T08:00:42+24:00", "offset"),
        ("2026-11-21T08:00:42+08", "not an ISO-8601 time"),
        ("2026-11-21T08:00:42Zjunk", "not an ISO-8601 time"),
        ("2026-11-21T08:00:42.Z", "not an ISO-8601 time"),
        ("2026-11-21T08:00Z", "not an ISO-8601 time"),
        ("2026-1-21T08:00:00Z", "not an ISO-8601 time"),
        ("2026-11-21X08:00:00Z", "not an ISO-8601 time"),
        ("20261121T080000Z", "not an ISO-8601 time"),
        ("", "not an ISO-8601 time"),
        ("0000-01-01T00:00:00+00:01", "outside years 0000–9999"),
    ]

    @Test(arguments: rejected)
    func rejectsInvalidTimesSayingWhy(text: String, reason: String) {
        #expect(Timestamp(iso8601: text) == nil)
        #expect {
            try Timestamp.parseISO8601(text)
        } throws: { error in
            (error as? InputError)?.message.contains(reason) == true
        }
    }

    static let unixSeconds: [(String, Int64)] = [
        ("1795248001.5", 1_795_248_001_500_000),
        ("1795248001", 1_795_248_001_000_000),
        ("-12", -12_000_000),
        ("-0", 0),
        ("0", 0),
        ("+5", 5_000_000),
        ("1.7952480015e9", 1_795_248_001_500_000),
        ("1.7952480015E+9", 1_795_248_001_500_000),
        ("17952480015e-1", 1_795_248_001_500_000),
        ("1795248001.000001", 1_795_248_001_000_001),
        ("1795248001.0000015", 1_795_248_001_000_002),
        ("0.0000005", 1),
        ("-0.0000005", -1),
        ("0.00000049999", 0),
        ("1e-30", 0),
        ("0e999999999", 0),
        ("253402300799.999999", 253_402_300_799_999_999),
        ("-62167219200", -62_167_219_200_000_000),
        // Whole seconds of up to 12 digits take a shorter path: leading zeros and the last second it allows.
        ("001795248001", 1_795_248_001_000_000),
        ("253402300799", 253_402_300_799_000_000),
        ("0000000000000001795248001", 1_795_248_001_000_000),
    ]

    @Test(arguments: unixSeconds)
    func parsesUnixSecondsExactlyInDecimal(text: String, microseconds: Int64) throws {
        #expect(try Timestamp.parseUnixSeconds(text) == Timestamp(microseconds: microseconds))
    }

    static let badUnixSeconds: [(String, String)] = [
        ("abc", "is not a number"),
        ("1.", "is not a number"),
        (".5", "is not a number"),
        ("1e", "is not a number"),
        ("", "is not a number"),
        ("1 2", "is not a number"),
        ("1795248001000", "milliseconds"),
        ("1e400", "outside years"),
        ("253402300800", "outside years"),
        // 19 and 20 digits: more than the digit accumulator holds (these once overflowed and trapped).
        ("9999999999999999999", "outside years"),
        ("-99999999999999999999.5", "outside years"),
        ("999999999999999999e1", "outside years"),
    ]

    @Test(arguments: badUnixSeconds)
    func rejectsBadUnixSeconds(text: String, reason: String) {
        #expect {
            try Timestamp.parseUnixSeconds(text)
        } throws: { error in
            (error as? InputError)?.message.contains(reason) == true
        }
    }
}
