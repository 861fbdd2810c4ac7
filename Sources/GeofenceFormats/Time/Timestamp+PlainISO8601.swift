import GeofenceKit

extension Timestamp {
    /// The time written at `start` in the shape devices and exporters write (`2024-05-01T10:00:00Z`, with an
    /// optional fraction of 1 to 9 digits: `2024-05-01T10:00:00.250Z`), and the offset just after its `Z`; `nil`
    /// for anything else (a zone offset, lowercase letters, a space for the `T`, a long fraction, a value out of
    /// range…), which the caller then reads with ``parseGeneralISO8601(_:)``.
    ///
    /// A time this reads is the one the general reader gives for the same text (the same checks and arithmetic;
    /// ``TimestampPlainISO8601Tests`` compares them), in a few dozen instructions instead of a few hundred. It is
    /// the first step of ``parseISO8601(_:)-(UnsafeBufferPointer<UInt8>)`` (CSV, NDJSON, `score`), and GPX's
    /// one-pass track point calls it directly, for the time inside `<time>…</time>`.
    @inline(__always)
    static func parsePlainISO8601(_ p: UnsafePointer<UInt8>, at start: Int, count n: Int) -> (Timestamp, end: Int)? {
        // `YYYY-MM-DDThh:mm:ss` is 19 bytes, and a `Z` follows at least.
        guard n - start >= 20 else { return nil }
        let t = p + start
        guard t[4] == UInt8(ascii: "-"), t[7] == UInt8(ascii: "-"), t[10] == UInt8(ascii: "T"),
            t[13] == UInt8(ascii: ":"), t[16] == UInt8(ascii: ":")
        else { return nil }
        // The fourteen digits' values; one test for all of them, since `d | (d + 6)` is below 16 only for 0…9.
        let y0 = t[0] &- 48, y1 = t[1] &- 48, y2 = t[2] &- 48, y3 = t[3] &- 48
        let mo0 = t[5] &- 48, mo1 = t[6] &- 48, d0 = t[8] &- 48, d1 = t[9] &- 48
        let h0 = t[11] &- 48, h1 = t[12] &- 48, mi0 = t[14] &- 48, mi1 = t[15] &- 48, s0 = t[17] &- 48, s1 = t[18] &- 48
        var notDigits = y0 | (y0 &+ 6) | y1 | (y1 &+ 6) | y2 | (y2 &+ 6) | y3 | (y3 &+ 6)
        notDigits |= mo0 | (mo0 &+ 6) | mo1 | (mo1 &+ 6) | d0 | (d0 &+ 6) | d1 | (d1 &+ 6)
        notDigits |= h0 | (h0 &+ 6) | h1 | (h1 &+ 6) | mi0 | (mi0 &+ 6) | mi1 | (mi1 &+ 6) | s0 | (s0 &+ 6) | s1 | (s1 &+ 6)
        guard notDigits < 16 else { return nil }
        let year = ((Int(y0) * 10 + Int(y1)) * 10 + Int(y2)) * 10 + Int(y3)
        let month = Int(mo0) * 10 + Int(mo1), day = Int(d0) * 10 + Int(d1)
        let hour = Int(h0) * 10 + Int(h1), minute = Int(mi0) * 10 + Int(mi1), second = Int(s0) * 10 + Int(s1)
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
        guard month >= 1 && month <= 12, day >= 1 && day <= daysInMonth(year: year, month: month), hour <= 23,
            minute <= 59, second <= 60
        else { return nil }
        let days = Int64(daysFromCivil(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
        let timestamp = Timestamp(microseconds: seconds * 1_000_000 + fraction)
        guard textRange.contains(timestamp) else { return nil }
        return (timestamp, index + 1)
    }
}
