// ISO-8601 and Unix-seconds text for timestamps, written and read without Foundation: `DateFormatter` and
// `Calendar` cost microseconds per call, and the decoders parse millions of times per second.

extension Timestamp {
    /// The timestamps the text forms accept: 0000-01-01T00:00:00Z through 9999-12-31T23:59:59.999999Z.
    ///
    /// Four-digit years are what ISO-8601 without expansion can spell; a Unix time outside this range is almost
    /// always a unit mistake (milliseconds sent as seconds), so it is reported rather than accepted.
    public static let textRange: ClosedRange<Timestamp> =
        Timestamp(microseconds: -62_167_219_200_000_000)...Timestamp(microseconds: 253_402_300_799_999_999)

    /// `2026-11-21T08:00:42Z`, or `2026-11-21T08:00:42.5Z` when the time has a fraction of a second.
    ///
    /// Always UTC with a `Z`; the fraction has trailing zeros trimmed (at most six digits, as a timestamp holds
    /// microseconds). Years outside 0000…9999 use ISO-8601's expanded form with a sign (`+10000-…`, `-0001-…`)
    /// so every timestamp has a text that sorts and reads unambiguously.
    public var iso8601: String {
        String(unsafeUninitializedCapacity: Self.maximumISO8601Length) { buffer in
            writeISO8601(into: buffer)
        }
    }

    /// Appends ``iso8601`` as UTF-8 to `buffer`, for writers that build output lines without a `String` per value.
    public func appendISO8601(to buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumISO8601Length) { scratch in
            let count = writeISO8601(into: scratch)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
    }

    /// Parses an ISO-8601 date-time (see ``parseISO8601(_:)-(String)``); `nil` when the text is not one.
    public init?(iso8601 text: String) {
        guard let parsed = try? Self.parseISO8601(text) else { return nil }
        self = parsed
    }

    /// Parses `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm|±hhmm)`.
    ///
    /// Accepted beyond the strict form, because real feeds contain them: lowercase `t` and `z`, a space instead of
    /// `T`, a comma as the decimal mark, and a fraction of any length (rounded half up to the microsecond).
    /// A zone is required: a local time without one cannot be placed on the timeline.
    ///
    /// Second `60` is accepted at any minute and means the following second (`23:59:60Z` is `00:00:00Z` of the
    /// next day), as in POSIX time, which does not count leap seconds; without a leap-second table, rejecting or
    /// placing them otherwise would only lose data.
    /// - Throws: ``InputError`` whose message says what is wrong; the caller adds line, column and field.
    public static func parseISO8601(_ text: String) throws(InputError) -> Timestamp {
        var text = text
        let result = text.withUTF8 { bytes -> Result<Timestamp, InputError> in
            do throws(InputError) { return .success(try parseISO8601(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses an ISO-8601 date-time from UTF-8 bytes; see ``parseISO8601(_:)-(String)`` for the accepted forms.
    public static func parseISO8601(_ text: UnsafeBufferPointer<UInt8>) throws(InputError) -> Timestamp {
        var reader = ISO8601Reader(text: text)
        let year = try reader.digits(4)
        try reader.expect(UInt8(ascii: "-"))
        let month = try reader.digits(2)
        try reader.expect(UInt8(ascii: "-"))
        let day = try reader.digits(2)
        try reader.expectDateTimeSeparator()
        let hour = try reader.digits(2)
        try reader.expect(UInt8(ascii: ":"))
        let minute = try reader.digits(2)
        try reader.expect(UInt8(ascii: ":"))
        let second = try reader.digits(2)
        let fraction = try reader.fractionMicroseconds()
        let offsetSeconds = try reader.zoneOffsetSeconds()
        guard reader.isAtEnd else { throw reader.syntaxError() }

        guard (1...12).contains(month) else { throw reader.rangeError("month \(month) is not 01–12") }
        let monthLength = daysInMonth(year: year, month: month)
        guard (1...monthLength).contains(day) else {
            throw reader.rangeError("day \(day) is not 01–\(monthLength) in \(pad(year, 4))-\(pad(month, 2))")
        }
        guard hour <= 23 else { throw reader.rangeError("hour \(hour) is not 00–23") }
        guard minute <= 59 else { throw reader.rangeError("minute \(minute) is not 00–59") }
        guard second <= 60 else { throw reader.rangeError("second \(second) is not 00–60") }

        let days = Int64(daysFromCivil(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offsetSeconds)
        let timestamp = Timestamp(microseconds: seconds * 1_000_000 + fraction)
        guard textRange.contains(timestamp) else {
            throw reader.rangeError("the time in UTC falls outside years 0000–9999")
        }
        return timestamp
    }

    /// Parses Unix seconds written as a JSON number's text (`1795248001.5`, `-12`, `1.7952480015e9`), exactly.
    ///
    /// The digits are converted in decimal, never through a `Double`, so `1795248001.000001` keeps its last
    /// microsecond; more fraction digits are rounded half away from zero (as ``Timestamp/init(seconds:)`` does).
    /// A leading `+` and leading zeros are tolerated for CSV files; the result must lie in ``textRange``.
    /// - Throws: ``InputError`` whose message says what is wrong; the caller adds line, column and field.
    public static func parseUnixSeconds(_ text: UnsafeBufferPointer<UInt8>) throws(InputError) -> Timestamp {
        switch unixMicroseconds(text) {
        case .microseconds(let microseconds):
            return Timestamp(microseconds: microseconds)
        case .notANumber:
            throw InputError("\(quoted(text)) is not a number of Unix seconds")
        case .outOfRange:
            throw InputError(
                "Unix time \(quoted(text)) is outside years 0000–9999 (milliseconds sent as seconds?)")
        }
    }

    /// Parses Unix seconds from text; see ``parseUnixSeconds(_:)-(UnsafeBufferPointer<UInt8>)``.
    public static func parseUnixSeconds(_ text: String) throws(InputError) -> Timestamp {
        var text = text
        let result = text.withUTF8 { bytes -> Result<Timestamp, InputError> in
            do throws(InputError) { return .success(try parseUnixSeconds(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

// MARK: - Formatting

extension Timestamp {
    /// Sign, six year digits and `-MM-DDThh:mm:ss.ffffffZ` (Int64 microseconds span ±292,277 years).
    static let maximumISO8601Length = 32

    /// Writes the ISO-8601 text into `buffer` (at least ``maximumISO8601Length`` bytes) and returns its length.
    private func writeISO8601(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        // Floor division, so times before 1970 land on the right day with a non-negative time of day.
        var days = microseconds / 86_400_000_000
        var microOfDay = microseconds % 86_400_000_000
        if microOfDay < 0 {
            days -= 1
            microOfDay += 86_400_000_000
        }
        let (year, month, day) = Self.civilFromDays(days)
        let secondOfDay = Int(microOfDay / 1_000_000)
        let fraction = Int(microOfDay % 1_000_000)

        var index = 0
        func put(_ byte: UInt8) {
            buffer[index] = byte
            index += 1
        }
        func put(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        if year < 0 {
            put(UInt8(ascii: "-"))
            put(-year, digits: Self.decimalDigitCount(-year, minimum: 4))
        } else if year > 9_999 {
            put(UInt8(ascii: "+"))
            put(year, digits: Self.decimalDigitCount(year, minimum: 4))
        } else {
            put(year, digits: 4)
        }
        put(UInt8(ascii: "-"))
        put(month, digits: 2)
        put(UInt8(ascii: "-"))
        put(day, digits: 2)
        put(UInt8(ascii: "T"))
        put(secondOfDay / 3_600, digits: 2)
        put(UInt8(ascii: ":"))
        put(secondOfDay / 60 % 60, digits: 2)
        put(UInt8(ascii: ":"))
        put(secondOfDay % 60, digits: 2)
        if fraction > 0 {
            var digits = 6
            var trimmed = fraction
            while trimmed % 10 == 0 {
                trimmed /= 10
                digits -= 1
            }
            put(UInt8(ascii: "."))
            put(trimmed, digits: digits)
        }
        put(UInt8(ascii: "Z"))
        return index
    }

    private static func decimalDigitCount(_ value: Int, minimum: Int) -> Int {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return max(count, minimum)
    }
}

// MARK: - Calendar arithmetic

extension Timestamp {
    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`),
    /// correct for every day an `Int64` of microseconds can reach, including before year 1.
    static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // March = 0, so the leap day falls at the end
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

// MARK: - Unix seconds

extension Timestamp {
    private enum UnixSecondsValue {
        case microseconds(Int64)
        case notANumber
        case outOfRange
    }

    /// The exact microseconds of a decimal number of seconds, if it is one and lies in ``textRange``.
    private static func unixMicroseconds(_ text: UnsafeBufferPointer<UInt8>) -> UnixSecondsValue {
        var index = 0
        let count = text.count
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

    @inline(__always)
    fileprivate static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The text in quotes for a message, cut at 40 characters so one bad field cannot flood a report.
    fileprivate static func quoted(_ text: UnsafeBufferPointer<UInt8>) -> String {
        let string = String(decoding: text, as: UTF8.self)
        return string.count > 40 ? "\"\(string.prefix(40))…\"" : "\"\(string)\""
    }
}

/// A cursor over ISO-8601 text that produces the parser's error messages.
private struct ISO8601Reader {
    let text: UnsafeBufferPointer<UInt8>
    var index = 0

    var isAtEnd: Bool { index == text.count }

    func syntaxError() -> InputError {
        InputError("\(Timestamp.quoted(text)) is not an ISO-8601 time (YYYY-MM-DDThh:mm:ss[.fraction]Z or ±hh:mm)")
    }

    func rangeError(_ detail: String) -> InputError {
        InputError("\(Timestamp.quoted(text)) is not a valid time: \(detail)")
    }

    mutating func digits(_ count: Int) throws(InputError) -> Int {
        guard index + count <= text.count else { throw syntaxError() }
        var value = 0
        for _ in 0..<count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { throw syntaxError() }
            value = value * 10 + Int(digit)
            index += 1
        }
        return value
    }

    mutating func expect(_ byte: UInt8) throws(InputError) {
        guard index < text.count, text[index] == byte else { throw syntaxError() }
        index += 1
    }

    mutating func expectDateTimeSeparator() throws(InputError) {
        guard index < text.count else { throw syntaxError() }
        let byte = text[index]
        guard byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") || byte == UInt8(ascii: " ") else {
            throw syntaxError()
        }
        index += 1
    }

    /// The optional fraction of a second, rounded half up to whole microseconds (so it may be 1,000,000).
    mutating func fractionMicroseconds() throws(InputError) -> Int64 {
        guard index < text.count, text[index] == UInt8(ascii: ".") || text[index] == UInt8(ascii: ",") else {
            return 0
        }
        index += 1
        let start = index
        var value: Int64 = 0
        var roundUp = false
        while index < text.count, Timestamp.isDigit(text[index]) {
            let digit = Int64(text[index] &- UInt8(ascii: "0"))
            let position = index - start
            if position < 6 {
                value = value * 10 + digit
            } else if position == 6 {
                roundUp = digit >= 5
            }
            index += 1
        }
        let digitCount = index - start
        guard digitCount > 0 else { throw syntaxError() }
        for _ in digitCount..<max(digitCount, 6) { value *= 10 }
        return roundUp ? value + 1 : value
    }

    /// `Z` (any case) or `±hh:mm` / `±hhmm`, as seconds east of UTC.
    mutating func zoneOffsetSeconds() throws(InputError) -> Int {
        guard index < text.count else {
            throw InputError("\(Timestamp.quoted(text)) has no time zone (add Z for UTC, or an offset like +08:00)")
        }
        let byte = text[index]
        if byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "z") {
            index += 1
            return 0
        }
        guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { throw syntaxError() }
        index += 1
        let hours = try digits(2)
        if index < text.count, text[index] == UInt8(ascii: ":") { index += 1 }
        let minutes = try digits(2)
        guard hours <= 23, minutes <= 59 else { throw rangeError("offset hours must be 00–23 and minutes 00–59") }
        let seconds = hours * 3_600 + minutes * 60
        return byte == UInt8(ascii: "-") ? -seconds : seconds
    }
}
