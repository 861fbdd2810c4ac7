// ISO-8601 date-times read without Foundation: the sample decoders parse millions of times per second.

import GeofenceKit

extension Timestamp {
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
    ///
    /// The shape devices and exporters write (`2026-11-21T08:00:42Z`, `…42.250Z`) is read in one pass
    /// (``parsePlainISO8601(_:at:count:)``); anything else, errors included, by ``parseGeneralISO8601(_:)``.
    public static func parseISO8601(_ text: UnsafeBufferPointer<UInt8>) throws(InputError) -> Timestamp {
        if let base = text.baseAddress, let (time, end) = parsePlainISO8601(base, at: 0, count: text.count),
            end == text.count
        {
            return time
        }
        return try parseGeneralISO8601(text)
    }

    /// Reads every accepted form of ``parseISO8601(_:)-(String)`` and says what is wrong with any other text.
    static func parseGeneralISO8601(_ text: UnsafeBufferPointer<UInt8>) throws(InputError) -> Timestamp {
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

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The text in quotes for a message, cut at 40 characters so one bad field cannot flood a report.
    static func quoted(_ text: UnsafeBufferPointer<UInt8>) -> String {
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
