import GeofenceKit

/// Numbers as GPX writes them (`xsd:decimal`: `47.644548`, `-122.3`, `+5.`, `.5`), converted to the nearest
/// `Double` without creating a `String`.
///
/// Lenient beyond the schema, since exporters write them: surrounding whitespace and an exponent (`1.5e2`).
/// Numbers of at most 19 digits (every GPS coordinate) are converted exactly by ``DecimalConversion``; others go
/// through the standard library's correctly rounded parser. A point has three numbers, so the digits are read in one tight loop per part.

enum GPXDecimal {
    /// Why a text is not a usable number.
    enum Failure: Error, Sendable, Equatable {
        /// Not a decimal number at all (`undefined`, `y`, empty).
        case notANumber
        /// `NaN`, `INF` or a value beyond `Double`'s range.
        case notFinite
    }

    /// The value of `text`, or why it has none.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<Double, Failure> {
        // Raw pointer reads: the reader runs in debug builds too, where buffer subscripts are calls.
        guard let text = buffer.baseAddress else { return .failure(.notANumber) }
        var start = 0
        var end = buffer.count
        while start < end && isSpace(text[start]) { start += 1 }
        while end > start && isSpace(text[end - 1]) { end -= 1 }
        var index = start
        var negative = false
        if index < end && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        // All digits go into the mantissa, leading zeros included; the count says whether it can have overflowed.
        var mantissa: UInt64 = 0
        let integerStart = index
        while index < end, text[index] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(text[index] &- UInt8(ascii: "0"))
            index += 1
        }
        var digits = index - integerStart
        var exponent = 0
        if index < end && text[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < end, text[index] &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa &* 10 &+ UInt64(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            digits += index - fractionStart
            exponent = fractionStart - index
        }
        guard digits > 0 else { return .failure(isSpecial(buffer, start, end) ? .notFinite : .notANumber) }
        if index < end && text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < end && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentStart = index
            var written = 0
            while index < end, text[index] &- UInt8(ascii: "0") < 10 {
                written = min(written * 10 + Int(text[index] &- UInt8(ascii: "0")), 100_000)
                index += 1
            }
            guard index > exponentStart else { return .failure(.notANumber) }
            exponent += exponentNegative ? -written : written
        }
        guard index == end else { return .failure(.notANumber) }

        guard let value = DecimalConversion.double(mantissa: mantissa, digits: digits, exponent: exponent) else {
            let slice = UnsafeBufferPointer(start: text + start, count: end - start)
            let value = Double(String(decoding: slice, as: UTF8.self)) ?? .infinity
            guard value.isFinite else { return .failure(.notFinite) }
            return .success(value)
        }
        guard value.isFinite else { return .failure(.notFinite) }
        return .success(negative ? -value : value)
    }

    /// The number written at `start` in the plain shape (`[-+]digits[.digits]`, at most 19 digits, at least one)
    /// and the offset of the byte after it, which the caller checks; `nil` for anything else, which ``parse(_:)``
    /// then reads. For such a text both give the same value: they convert through the same ``DecimalConversion``.
    @inline(__always)
    static func parsePlain(_ p: UnsafePointer<UInt8>, at start: Int, count n: Int) -> (value: Double, end: Int)? {
        var index = start
        var negative = false
        if index < n && (p[index] == UInt8(ascii: "-") || p[index] == UInt8(ascii: "+")) {
            negative = p[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        let integerStart = index
        while index < n, case let digit = p[index] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        var digits = index - integerStart
        var fractionDigits = 0
        if index < n && p[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            // A coordinate's fraction (7 digits as devices write them) in one step while eight bytes are left. (A
            // mantissa that wraps has more than 19 digits, which DecimalConversion refuses.)
            if n - index >= 8 {
                let (value, count) = EightBytes.leadingDigits(at: index, in: UnsafeBufferPointer(start: p, count: n))
                mantissa = mantissa &* powersOfTen[count] &+ value
                index += count
            }
            while index < n, case let digit = p[index] &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            fractionDigits = index - fractionStart
            digits += fractionDigits
        }
        guard digits > 0, let value = DecimalConversion.double(mantissa: mantissa, digits: digits, exponent: -fractionDigits)
        else { return nil }
        return (negative ? -value : value, index)
    }

    /// 10^0…10^8, to shift a mantissa left by the digits read at once.
    private static let powersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// `NaN`, `INF`, `Infinity`, with an optional sign, in any case.
    private static func isSpecial(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var word = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self).lowercased()
        if word.hasPrefix("-") || word.hasPrefix("+") { word.removeFirst() }
        return word == "nan" || word == "inf" || word == "infinity"
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}
