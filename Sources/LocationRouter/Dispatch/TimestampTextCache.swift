import GeofenceKit

/// ISO-8601 text of event times (``Timestamp/iso8601``), the date of the last day and the time of day of the last
/// second written kept as text.
///
/// A run's events mostly fall on one day (or a few), and a batch's on a few seconds, in whatever order the shards
/// deliver them, so the calendar arithmetic runs once per day of events and the time of day once per second
/// rather than once per event: each event costs three word copies and its fraction of a second, if any.
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
    /// The first microsecond of the second whose time of day `clock` holds, and of the second after it.
    private var secondStart = Int64.max
    private var secondEnd = Int64.min
    /// `08:00:42` in one 8-byte word.
    private var clock: UInt64 = 0

    /// Writes the text of `time` at `output` (room for ``room`` bytes) and returns its length.
    ///
    /// Inlined where an event writes its time: the common case is three stores and a test, which a call doubled.
    @inline(__always)
    mutating func write(_ time: Timestamp, at output: UnsafeMutablePointer<UInt8>) -> Int {
        let microseconds = time.microseconds
        if microseconds < secondStart || microseconds >= secondEnd {
            guard startSecond(of: microseconds) else {
                // The first and last days an Int64 of microseconds reaches are partly outside it: no cache there.
                return time.writeISO8601(into: UnsafeMutableBufferPointer(start: output, count: Self.room))
            }
        }
        let raw = UnsafeMutableRawPointer(output)
        raw.storeBytes(of: date.0, as: UInt64.self)
        raw.storeBytes(of: date.1, toByteOffset: 8, as: UInt64.self)
        raw.storeBytes(of: clock, toByteOffset: dateLength, as: UInt64.self)
        // Wrapping arithmetic: nothing here can overflow, and each check cost two instructions an event.
        var length = dateLength &+ 8
        let fraction = UInt64(truncatingIfNeeded: microseconds &- secondStart)
        if fraction > 0 {
            let (trimmed, digits) = Timestamp.trimmedFraction(fraction)
            output[length] = UInt8(ascii: ".")
            DecimalDigits.write(trimmed, count: digits, at: output + length + 1)
            length &+= digits &+ 1
        }
        output[length] = UInt8(ascii: "Z")
        return length &+ 1
    }

    /// Makes the cache hold the second of `microseconds` (and its day); false on the two days it cannot hold.
    @inline(never)
    private mutating func startSecond(of microseconds: Int64) -> Bool {
        if microseconds < dayStart || microseconds >= dayEnd {
            // Floor division: a time before 1970 lands on its day.
            var day = microseconds / Self.microsecondsPerDay
            if microseconds % Self.microsecondsPerDay < 0 { day -= 1 }
            let (start, overflow) = day.multipliedReportingOverflow(by: Self.microsecondsPerDay)
            let (end, overflowAtEnd) = start.addingReportingOverflow(Self.microsecondsPerDay)
            guard !overflow && !overflowAtEnd else { return false }
            // Midnight's text without its `00:00:00Z`.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Timestamp.maximumISO8601Length) { text in
                dateLength = Timestamp(microseconds: start).writeISO8601(into: text) - "00:00:00Z".utf8.count
                let raw = UnsafeRawPointer(text.baseAddress!)
                date = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            (dayStart, dayEnd) = (start, end)
        }
        let microOfDay = microseconds &- dayStart
        let second = UInt32(truncatingIfNeeded: microOfDay / 1_000_000)
        secondStart = dayStart &+ Int64(second) &* 1_000_000
        secondEnd = secondStart &+ 1_000_000
        // hh:mm:ss as the eight digits of hh0mm0ss, the two zeros (bytes 2 and 5) then made colons.
        let digits = DecimalDigits.eightDigits((second / 3_600) * 1_000_000 + (second / 60 % 60) * 1_000 + second % 60)
        let colons: UInt64 = 0xFF << 16 | 0xFF << 40
        clock = (digits & ~colons | UInt64(UInt8(ascii: ":")) * (1 << 16 | 1 << 40)).littleEndian
        return true
    }
}
