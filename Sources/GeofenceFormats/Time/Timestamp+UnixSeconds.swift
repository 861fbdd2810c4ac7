// Unix seconds (`1795248001.5`) read exactly, in decimal, without going through a `Double`.

import GeofenceKit

extension Timestamp {
    /// Parses Unix seconds written as a JSON number's text (`1795248001.5`, `-12`, `1.7952480015e9`), exactly.
    ///
    /// The digits are converted in decimal, never through a `Double`, so `1795248001.000001` keeps its last
    /// microsecond; more fraction digits are rounded half away from zero (as ``Timestamp/init(seconds:)`` does).
    /// A leading `+` and leading zeros are tolerated for CSV files; the result must lie in ``textRange``.
    /// - Parameter alternative: what else the caller would have read in that place (`an ISO-8601 time`), named by
    ///   the message when the text is not a number.
    /// - Throws: ``InputError`` whose message says what is wrong; the caller adds line, column and field.
    public static func parseUnixSeconds(
        _ text: UnsafeBufferPointer<UInt8>, alternative: String? = nil
    ) throws(InputError) -> Timestamp {
        switch unixMicroseconds(text) {
        case .microseconds(let microseconds):
            return Timestamp(microseconds: microseconds)
        case .notANumber:
            guard let alternative else { throw InputError("\(quoted(text)) is not a number of Unix seconds") }
            throw InputError("\(quoted(text)) is neither \(alternative) nor a number of Unix seconds")
        case .outOfRange:
            throw InputError(
                "Unix time \(quoted(text)) is outside years 0000–9999 (milliseconds sent as seconds?)")
        }
    }

    /// Parses Unix seconds from text; see ``parseUnixSeconds(_:alternative:)``.
    public static func parseUnixSeconds(_ text: String) throws(InputError) -> Timestamp {
        var text = text
        let result = text.withUTF8 { bytes -> Result<Timestamp, InputError> in
            do throws(InputError) { return .success(try parseUnixSeconds(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Whole Unix seconds of 1 to 12 digits starting at `start` of a line, read in place, and the offset after
    /// them; `nil` when there are no such digits or the time is outside ``textRange``. The caller checks that the
    /// number ends there (a `.` or an `e` after the digits is a number to read through
    /// ``parseUnixSeconds(_:alternative:)``). The value is the one that function gives.
    @inline(__always)
    static func wholeUnixSeconds(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Timestamp, end: Int)? {
        let count = bytes.count
        var index = start
        var seconds: Int64 = 0
        if index + 8 <= count, let eight = EightBytes.digits(at: index, in: bytes) {
            seconds = Int64(eight)
            index += 8
            // Today's times have ten digits: the last two without the loop.
            if index + 2 <= count, case let tens = bytes[index] &- UInt8(ascii: "0"), tens < 10,
                case let ones = bytes[index + 1] &- UInt8(ascii: "0"), ones < 10
            {
                seconds = seconds * 100 + Int64(tens) * 10 + Int64(ones)
                index += 2
            }
        }
        // Wrapping and stopping at 13 digits: a longer run is refused below anyway.
        while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10, index - start < 13 {
            seconds = seconds &* 10 &+ Int64(digit)
            index += 1
        }
        // Whole seconds are never below ``textRange``; its last whole second is a constant, where reading the
        // range itself cost a lazy global's check per line.
        guard index > start, index - start <= 12, seconds <= lastWholeSecond else { return nil }
        return (Timestamp(microseconds: seconds * 1_000_000), index)
    }

    /// The last whole second of ``textRange`` (9999-12-31T23:59:59Z); `TimestampTests` checks it against the range.
    static let lastWholeSecond: Int64 = 253_402_300_799

    private enum UnixSecondsValue {
        case microseconds(Int64)
        case notANumber
        case outOfRange
    }

    /// The exact microseconds of a decimal number of seconds, if it is one and lies in ``textRange``.
    private static func unixMicroseconds(_ text: UnsafeBufferPointer<UInt8>) -> UnixSecondsValue {
        var index = 0
        let count = text.count
        // The common case first: whole seconds, 1 to 12 digits (within ``textRange`` or just past it).
        if count > 0, count <= 12 {
            var seconds: Int64 = 0
            // Today's times have ten digits: the first eight in one step.
            if count >= 8, let eight = EightBytes.digits(at: 0, in: text) {
                seconds = Int64(eight)
                index = 8
            }
            while index < count, isDigit(text[index]) {
                seconds = seconds * 10 + Int64(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            if index == count {
                let microseconds = seconds * 1_000_000
                guard textRange.contains(Timestamp(microseconds: microseconds)) else { return .outOfRange }
                return .microseconds(microseconds)
            }
            index = 0
        }
        var negative = false
        if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        let integerStart = index
        while index < count, isDigit(text[index]) { index += 1 }
        let integerEnd = index
        guard integerEnd > integerStart else { return .notANumber }
        var fractionStart = index
        var fractionEnd = index
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            while index < count, isDigit(text[index]) { index += 1 }
            fractionEnd = index
            guard fractionEnd > fractionStart else { return .notANumber }
        }
        var exponent = 0
        if index < count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentStart = index
            while index < count, isDigit(text[index]) {
                // Clamped: beyond a million digits of shift the value is zero or out of range either way.
                exponent = min(exponent * 10 + Int(text[index] &- UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            guard index > exponentStart else { return .notANumber }
            if exponentNegative { exponent = -exponent }
        }
        guard index == count else { return .notANumber }

        // The digits d0 d1 … (integer then fraction digits) are worth d_i × 10^(shift − 1 − i) microseconds:
        // the first `shift` digits are whole microseconds, the next one decides the rounding.
        let integerCount = integerEnd - integerStart
        let digitCount = integerCount + (fractionEnd - fractionStart)
        func digit(_ i: Int) -> Int64 {
            let byte = i < integerCount ? text[integerStart + i] : text[fractionStart + i - integerCount]
            return Int64(byte &- UInt8(ascii: "0"))
        }
        let shift = integerCount + exponent + 6
        // Above every in-range value (2.5e17) and at most Int64.max / 10, so `value * 10 + 9` cannot overflow.
        let limit: Int64 = 500_000_000_000_000_000
        var value: Int64 = 0
        for i in 0..<min(max(shift, 0), digitCount) {
            value = value * 10 + digit(i)
            guard value < limit else { return .outOfRange }
        }
        if shift > digitCount, value != 0 {
            for _ in 0..<(shift - digitCount) {
                value *= 10
                guard value < limit else { return .outOfRange }
            }
        }
        if shift >= 0, shift < digitCount, digit(shift) >= 5 { value += 1 }
        let microseconds = negative ? -value : value
        guard textRange.contains(Timestamp(microseconds: microseconds)) else { return .outOfRange }
        return .microseconds(microseconds)
    }
}
