import GeofenceKit

/// ISO-8601 text of event times (``Timestamp/iso8601``), the date of the last day written kept as text.
///
/// A run's events mostly fall on one day (or a few), in whatever order the shards deliver them, so the calendar
/// arithmetic runs once per day of events rather than once per event: each event costs its time of day (eight
/// digits at once) and its fraction of a second, if any.
struct TimestampTextCache {
    /// The room ``write(_:at:)`` needs: the date is copied as one 16-byte block, then the time of day follows.
    static let room = 48

    private static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The first microsecond of the day whose date `date` holds, and of the day after it.
    private var dayStart = Int64.max
    private var dayEnd = Int64.min
    /// `2026-11-21T` (at most 15 bytes: a sign and six digits of year) in two 8-byte words, copied with two stores.
    private var date: (UInt64, UInt64) = (0, 0)
    private var dateLength = 0

    /// Writes the text of `time` at `output` (room for ``room`` bytes) and returns its length.
    mutating func write(_ time: Timestamp, at output: UnsafeMutablePointer<UInt8>) -> Int {
        let microseconds = time.microseconds
        if microseconds < dayStart || microseconds >= dayEnd {
            // Floor division: a time before 1970 lands on its day.
            var day = microseconds / Self.microsecondsPerDay
            if microseconds % Self.microsecondsPerDay < 0 { day -= 1 }
            let (start, overflow) = day.multipliedReportingOverflow(by: Self.microsecondsPerDay)
            let (end, overflowAtEnd) = start.addingReportingOverflow(Self.microsecondsPerDay)
            // The first and last days an Int64 of microseconds reaches are partly outside it: no cache for those.
            guard !overflow && !overflowAtEnd else {
                return time.writeISO8601(into: UnsafeMutableBufferPointer(start: output, count: Self.room))
            }
            // Midnight's text without its `00:00:00Z`.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Timestamp.maximumISO8601Length) { text in
                dateLength = Timestamp(microseconds: start).writeISO8601(into: text) - "00:00:00Z".utf8.count
                let raw = UnsafeRawPointer(text.baseAddress!)
                date = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            (dayStart, dayEnd) = (start, end)
        }
        let microOfDay = UInt64(microseconds &- dayStart)
        let raw = UnsafeMutableRawPointer(output)
        raw.storeBytes(of: date.0, as: UInt64.self)
        raw.storeBytes(of: date.1, toByteOffset: 8, as: UInt64.self)
        var length = dateLength
        // hh:mm:ss as the eight digits of hh0mm0ss, the two zeros then made colons.
        let second = UInt32(truncatingIfNeeded: microOfDay / 1_000_000)
        DecimalDigits.writeEight((second / 3_600) * 1_000_000 + (second / 60 % 60) * 1_000 + second % 60, at: output + length)
        output[length + 2] = UInt8(ascii: ":")
        output[length + 5] = UInt8(ascii: ":")
        length += 8
        let fraction = microOfDay % 1_000_000
        if fraction > 0 {
            let (trimmed, digits) = Timestamp.trimmedFraction(fraction)
            output[length] = UInt8(ascii: ".")
            DecimalDigits.write(trimmed, count: digits, at: output + length + 1)
            length += digits + 1
        }
        output[length] = UInt8(ascii: "Z")
        return length + 1
    }
}
