/// The shortest decimal text that reads back as the same `Double`, written into a byte buffer without allocating:
/// the characters of `Double.description` (`25.0478`, `121.517`, `1e-05`, `1.2345678901234568e+16`, `0.0`).
///
/// Events carry two coordinates each, and `description` builds a `String` per call (on the heap once it is longer
/// than 15 bytes, as most coordinates are), which made it the slowest part of event encoding.
///
/// The digits come from Schubfach (Raffaello Giulietti, "The Schubfach way to render doubles", 2020, as in the
/// JDK's `DoubleToDecimal`): the shortest decimal in the value's rounding interval, the one closest to the value
/// when several are as short (ties to an even last digit). Numbers with an integer part and a fraction (below 2⁵²,
/// as coordinates are) get the same decimal from exact integer arithmetic (``fractionDigits(of:)``). The
/// layout is `description`'s: plain decimals with at least one fraction digit from 0.0001 up to 2⁵³, exponent
/// notation outside, `nan`, `inf`, `-inf`, `-0.0`.
public enum ShortestDouble {
    /// Appends the text of `value` (as `value.description` spells it) to `output`.
    public static func append(_ value: Double, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchLength) { buffer in
            let count = write(value, into: buffer.baseAddress!)
            output.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: count))
        }
    }

    /// The room ``write(_:into:)`` needs: the longest text, `-2.2250738585072014e-308`, has 24 bytes, but a
    /// fraction after an integer part of up to 16 digits is written as 16 digits whatever its length (those past
    /// the text's end are scratch), up to 34 bytes.
    public static let scratchLength = 40

    /// Writes the text of `value` at `text`, which must have room for ``scratchLength`` bytes; returns its length.
    ///
    /// Always inlined where it is called, the common case at least — a number with an integer part and a fraction,
    /// as coordinates are (its digits from ``fractionDigits(of:)``): an event has two, and the calls' own cost was a
    /// tenth of a coordinate's. Any other value takes ``writeAnyValue(_:into:)``.
    @inlinable @inline(always)
    public static func write(_ value: Double, into text: UnsafeMutablePointer<UInt8>) -> Int {
        guard let decimal = fractionDigits(of: value.magnitude) else { return writeAnyValue(value, into: text) }
        // The sign is written whatever it is; a positive number's digits then start over it.
        let sign = Int(truncatingIfNeeded: value.bitPattern &>> 63)
        text[0] = UInt8(ascii: "-")
        return sign &+ writeIntegerAndFraction(
            decimal.integer, decimal.sixteen, fractionDigits: decimal.digits, at: text + sign)
    }

    /// ``write(_:into:)`` for any other value than a number with an integer part and a fraction below 2⁵²: the
    /// sign, then `nan`, `inf`, `0.0`, exponent notation, a plain decimal below 1 or an integer with `.0`.
    @usableFromInline @inline(never)
    static func writeAnyValue(_ value: Double, into text: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 0
        if value.sign == .minus && !value.isNaN {
            text[0] = UInt8(ascii: "-")
            length = 1
        }
        guard value.isFinite && value != 0 else {
            let word: StaticString = value.isNaN ? "nan" : value.isInfinite ? "inf" : "0.0"
            word.withUTF8Buffer { for byte in $0 { text[length] = byte; length += 1 } }
            return length
        }
        let magnitude = value.magnitude
        let (significand, exponent) = trimmedDecimal(of: magnitude)
        // value = 0.d1…dn × 10^point.
        let count = DecimalDigits.count(significand)
        let point = exponent + count
        func put(_ byte: UInt8) {
            text[length] = byte
            length += 1
        }
        if point < -3 || magnitude > 0x1p53 {
            // d1[.d2…dn]e±XX, the exponent with at least two digits. The digits are written one place to the
            // right, then the first moves left before the point (byte moves: a wider load of the bytes just
            // stored would wait for the stores to land).
            DecimalDigits.write(significand, count: count, at: text + length + 1)
            text[length] = text[length + 1]
            if count > 1 {
                text[length + 1] = UInt8(ascii: ".")
                length += count + 1
            } else {
                length += 1
            }
            let power = point - 1
            put(UInt8(ascii: "e"))
            put(power < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let magnitude = UInt64(abs(power))
            let digits = max(2, DecimalDigits.count(magnitude))
            DecimalDigits.write(magnitude, count: digits, at: text + length)
            length += digits
        } else if point <= 0 {
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "."))
            for _ in 0 ..< -point { put(UInt8(ascii: "0")) }
            DecimalDigits.write(significand, count: count, at: text + length)
            length += count
        } else {
            // An integer: its digits, the zeros its exponent stands for, `.0`.
            DecimalDigits.write(significand, count: count, at: text + length)
            length += count
            for _ in 0 ..< point - count { put(UInt8(ascii: "0")) }
            put(UInt8(ascii: "."))
            put(UInt8(ascii: "0"))
        }
        return length
    }

    /// Writes `integer.fraction`, the fraction given as sixteen digits (`sixteen` × 10⁻¹⁶) of which the first
    /// `fractionDigits` (1 … 16) are its text; returns the length.
    ///
    /// Up to 7 digits (coordinates have 1 to 3, which take a shorter path), the integer and the point are one 8-byte
    /// word. The fraction is written whole, as two 8-digit words. No loop, and no byte is read back after it is
    /// written: every store lands whole. The bytes past the text's end are scratch.
    @inlinable @inline(always)
    static func writeIntegerAndFraction(
        _ integer: UInt64, _ sixteen: UInt64, fractionDigits: Int, at text: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var length: Int
        if integer < 1_000 {
            // Coordinates' integer parts: their digits from the table of pairs, the point after.
            let (digits, count) = DecimalDigits.upToThreeDigits(integer)
            length = count
            let word = digits | UInt64(UInt8(ascii: ".")) &<< (8 &* UInt64(count))
            UnsafeMutableRawPointer(text).storeBytes(of: word.littleEndian, as: UInt64.self)
        } else if integer < 10_000_000 {
            // The eight digits with the leading zeros shifted out (they are the word's low bytes), the point after.
            length = DecimalDigits.count(integer)
            let digits = DecimalDigits.eightDigits(UInt32(truncatingIfNeeded: integer)) &>> (64 &- 8 &* UInt64(length))
            let word = digits | UInt64(UInt8(ascii: ".")) &<< (8 &* UInt64(length))
            UnsafeMutableRawPointer(text).storeBytes(of: word.littleEndian, as: UInt64.self)
        } else {
            length = DecimalDigits.write(integer, at: text)
            text[length] = UInt8(ascii: ".")
        }
        DecimalDigits.writeSixteen(sixteen, at: text + length + 1)
        return length &+ 1 &+ fractionDigits
    }

    // MARK: Schubfach

    private static let significandBits = 52
    private static let minimumExponent = -1074
    private static let hiddenBit: UInt64 = 1 << 52
    static let mask63: UInt64 = (1 << 63) - 1

    /// ``decimal(of:)`` with the significand's trailing zeros moved into the exponent.
    @inline(__always)
    static func trimmedDecimal(of value: Double) -> (significand: UInt64, exponent: Int) {
        var (significand, exponent) = decimal(of: value)
        while significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        return (significand, exponent)
    }

    /// The shortest decimal `significand × 10^exponent` that rounds to `value` (finite and > 0); the significand
    /// may end in zeros.
    static func decimal(of value: Double) -> (significand: UInt64, exponent: Int) {
        let biasedExponent = Int(value.exponentBitPattern)
        let fraction = value.significandBitPattern
        guard biasedExponent != 0 else {
            // Subnormal: the two smallest significands have too few digits for the method; ×10 gives it room.
            return fraction < 3
                ? decimal(significand: 10 * fraction, binaryExponent: minimumExponent, extraExponent: -1, lowPrecision: true)
                : decimal(significand: fraction, binaryExponent: minimumExponent, extraExponent: 0, lowPrecision: true)
        }
        let c = hiddenBit | fraction
        let q = biasedExponent - 1075
        // Integers below 2⁵³ are their own shortest decimal.
        if q < 0 && q > -53 {
            let integer = c >> UInt64(-q)
            if integer << UInt64(-q) == c { return (integer, 0) }
        }
        return decimal(significand: c, binaryExponent: q, extraExponent: 0)
    }

    /// Schubfach's `toDecimal` for the value `c × 2^q` (× 10^dk).
    ///
    /// Schubfach tries one digit fewer than the interval's width suggests, which is always enough for normal values
    /// (and the JDK wants two digits at least). A subnormal value (`lowPrecision`) can have a rounding interval
    /// wide enough for several digits fewer, so for those the search goes on while shorter decimals fit.
    @inline(__always)
    private static func decimal(
        significand c: UInt64, binaryExponent q: Int, extraExponent dk: Int, lowPrecision: Bool = false
    ) -> (significand: UInt64, exponent: Int) {
        let out: UInt64 = c & 1
        let cb = c << 2
        let cbr = cb + 2
        let cbl: UInt64
        let k: Int
        if c != hiddenBit || q == minimumExponent {
            cbl = cb - 2
            k = floorLog10Pow2(q)
        } else {
            // At a power of two the interval below is half as wide.
            cbl = cb - 1
            k = floorLog10ThreeQuartersPow2(q)
        }
        let h = q + floorLog2Pow10(-k) + 2
        let (g1, g0) = scaledPowerOfTen(k)
        let vb = roundToOdd(g1, g0, cb &<< UInt64(h))
        let vbl = roundToOdd(g1, g0, cbl &<< UInt64(h))
        let vbr = roundToOdd(g1, g0, cbr &<< UInt64(h))
        let s = vb >> 2
        if lowPrecision {
            return shortestOfWideInterval(vb: vb, vbl: vbl, vbr: vbr, out: out, exponent: k + dk)
        }
        if s >= 100 {
            // One digit fewer, if either neighbour of that length lies in the interval.
            let sp = s.multipliedFullWidth(by: 115_292_150_460_684_698 << 4).high
            let sp10 = 10 * sp
            let tp10 = sp10 + 10
            let upin = vbl + out <= sp10 << 2
            let wpin = (tp10 << 2) + out <= vbr
            // Returned as sp or sp + 1 at the next power of ten: the zero that ×10 would append is not written.
            if upin != wpin { return (upin ? sp : sp + 1, k + 1) }
        }
        let t = s + 1
        let uin = vbl + out <= s << 2
        let win = (t << 2) + out <= vbr
        if uin != win { return (uin ? s : t, k + dk) }
        let comparison = Int64(bitPattern: vb &- ((s + t) << 1))
        return (comparison < 0 || (comparison == 0 && s & 1 == 0) ? s : t, k + dk)
    }

    /// The shortest decimal in the interval [vbl, vbr] (4× scaled, ends included when `out` is 0), the closest to
    /// `vb` among the shortest: for each unit 1, 10, 100, … the multiples of the unit on either side of the value.
    private static func shortestOfWideInterval(
        vb: UInt64, vbl: UInt64, vbr: UInt64, out: UInt64, exponent: Int
    ) -> (significand: UInt64, exponent: Int) {
        let s = vb >> 2
        var best: UInt64 = 0
        var unit: UInt64 = 1
        while unit <= s {
            let below = s / unit * unit
            let above = below + unit
            let belowFits = vbl + out <= below << 2
            let aboveFits = (above << 2) + out <= vbr
            guard belowFits || aboveFits else { break }
            if belowFits && aboveFits {
                let comparison = Int64(bitPattern: vb &- ((below + above) << 1))
                best = comparison < 0 || (comparison == 0 && (below / unit) & 1 == 0) ? below : above
            } else {
                best = belowFits ? below : above
            }
            unit *= 10
        }
        return (best, exponent)
    }

    /// g·cp / 2¹²⁷ (g = g1·2⁶³ + g0), rounded to odd.
    @inline(__always)
    private static func roundToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
        let x1 = g0.multipliedFullWidth(by: cp).high
        let y0 = g1 &* cp
        let y1 = g1.multipliedFullWidth(by: cp).high
        let z = (y0 >> 1) &+ x1
        let vbp = y1 &+ (z >> 63)
        return vbp | (((z & mask63) &+ mask63) >> 63)
    }

    /// ⌊q·log₁₀2⌋ for |q| ≤ 5,456.
    @usableFromInline @inline(__always) static func floorLog10Pow2(_ q: Int) -> Int { (q * 661_971_961_083) >> 41 }
    /// ⌊log₁₀(¾·2^q)⌋.
    @inline(__always) static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int {
        (q * 661_971_961_083 - 274_743_187_321) >> 41
    }
    /// ⌊e·log₂10⌋ for |e| ≤ 1,233.
    @inline(__always) static func floorLog2Pow10(_ e: Int) -> Int { (e * 913_124_641_741) >> 38 }
}
