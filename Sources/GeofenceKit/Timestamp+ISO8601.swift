// ISO-8601 text for timestamps, written without Foundation: `DateFormatter` and `Calendar` cost microseconds per
// call, and event writers format millions of times per second. Parsing lives in GeofenceFormats.

extension Timestamp {
    /// The timestamps the text forms accept: 0000-01-01T00:00:00Z through 9999-12-31T23:59:59.999999Z.
    ///
    /// Four-digit years are what ISO-8601 without expansion can spell; a Unix time outside this range is almost
    /// always a unit mistake (milliseconds sent as seconds), so it is reported rather than accepted.
    public static let textRange: ClosedRange<Timestamp> =
        Timestamp(microseconds: -62_167_219_200_000_000)...Timestamp(microseconds: 253_402_300_799_999_999)

    /// A fraction of a second in microseconds (1…999,999) as the text writes it: six digits with trailing zeros
    /// trimmed — `.5` is (5, 1 digit), `.25` is (25, 2), `.000001` is (1, 6).
    @inlinable
    public static func trimmedFraction(_ microseconds: UInt64) -> (value: UInt64, digits: Int) {
        var digits = 6
        var trimmed = microseconds
        while trimmed % 10 == 0 {
            trimmed /= 10
            digits -= 1
        }
        return (trimmed, digits)
    }

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
}

extension Timestamp {
    /// Sign, six year digits and `-MM-DDThh:mm:ss.ffffffZ` (Int64 microseconds span ±292,277 years).
    public static let maximumISO8601Length = 32

    /// Writes the ISO-8601 text into `buffer` (at least ``maximumISO8601Length`` bytes) and returns its length.
    public func writeISO8601(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
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

        let text = buffer.baseAddress!
        var index = 0
        func put(_ byte: UInt8) {
            text[index] = byte
            index += 1
        }
        func put(_ value: Int, digits: Int) {
            DecimalDigits.write(UInt64(value), count: digits, at: text + index)
            index += digits
        }
        if year < 0 {
            put(UInt8(ascii: "-"))
            put(-year, digits: max(4, DecimalDigits.count(UInt64(-year))))
        } else if year > 9_999 {
            put(UInt8(ascii: "+"))
            put(year, digits: DecimalDigits.count(UInt64(year)))
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
            let (trimmed, digits) = Self.trimmedFraction(UInt64(fraction))
            put(UInt8(ascii: "."))
            put(Int(trimmed), digits: digits)
        }
        put(UInt8(ascii: "Z"))
        return index
    }
}
