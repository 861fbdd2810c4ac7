import GeofenceKit

extension Timestamp {
    /// The time written at `start` in the shape devices and exporters write (`2024-05-01T10:00:00Z`, with an
    /// optional fraction of 1 to 9 digits: `2024-05-01T10:00:00.250Z`), and the offset just after its `Z`; `nil`
    /// for anything else (a zone offset, lowercase letters, a space for the `T`, a long fraction, a value out of
    /// range…), which the caller then reads with ``parseISO8601(_:)-(UnsafeBufferPointer<UInt8>)``.
    ///
    /// A time this reads is the one `parseISO8601` gives for the same text (the same checks and arithmetic), in a
    /// few dozen instructions instead of a few hundred: a GPX track point has one.
    @inline(__always)
    static func parsePlainISO8601(_ p: UnsafePointer<UInt8>, at start: Int, count n: Int) -> (Timestamp, end: Int)? {
        // `YYYY-MM-DDThh:mm:ss` is 19 bytes, and a `Z` follows at least.
        guard n - start >= 20, p[start + 4] == UInt8(ascii: "-"), p[start + 7] == UInt8(ascii: "-"),
            p[start + 10] == UInt8(ascii: "T"), p[start + 13] == UInt8(ascii: ":"), p[start + 16] == UInt8(ascii: ":"),
            let century = twoDigits(p + start), let yearOfCentury = twoDigits(p + start + 2),
            let month = twoDigits(p + start + 5), let day = twoDigits(p + start + 8),
            let hour = twoDigits(p + start + 11), let minute = twoDigits(p + start + 14),
            let second = twoDigits(p + start + 17)
        else { return nil }
        var index = start + 19
        var fraction: Int64 = 0
        if p[index] == UInt8(ascii: ".") {
            // As `parseISO8601` rounds it: the first six digits, half up on the seventh.
            index += 1
            let fractionStart = index
            var roundUp = false
            while index < n, case let digit = p[index] &- UInt8(ascii: "0"), digit < 10 {
                let position = index - fractionStart
                if position < 6 {
                    fraction = fraction * 10 + Int64(digit)
                } else if position == 6 {
                    roundUp = digit >= 5
                }
                index += 1
            }
            let digitCount = index - fractionStart
            guard digitCount > 0 && digitCount <= 9 else { return nil }
            for _ in digitCount..<max(digitCount, 6) { fraction *= 10 }
            if roundUp { fraction += 1 }
        }
        guard index < n, p[index] == UInt8(ascii: "Z") else { return nil }
        let year = century * 100 + yearOfCentury
        guard month >= 1 && month <= 12, day >= 1 && day <= daysInMonth(year: year, month: month), hour <= 23,
            minute <= 59, second <= 60
        else { return nil }
        let days = Int64(daysFromCivil(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
        let timestamp = Timestamp(microseconds: seconds * 1_000_000 + fraction)
        guard textRange.contains(timestamp) else { return nil }
        return (timestamp, index + 1)
    }

    /// The value of two decimal digits at `p`, or `nil` when either byte is not a digit.
    @inline(__always)
    private static func twoDigits(_ p: UnsafePointer<UInt8>) -> Int? {
        let tens = p[0] &- UInt8(ascii: "0")
        let units = p[1] &- UInt8(ascii: "0")
        guard tens < 10 && units < 10 else { return nil }
        return Int(tens) * 10 + Int(units)
    }
}
