import GeofenceKit

/// Numbers as GPX writes them (`xsd:decimal`: `47.644548`, `-122.3`, `+5.`, `.5`), converted to the nearest
/// `Double` without creating a `String`.
///
/// Lenient beyond the schema, since exporters write them: surrounding whitespace and an exponent (`1.5e2`).
/// Numbers with at most 15 significant digits and a small exponent (every GPS coordinate) are converted
/// exactly with one multiplication or division (Clinger's fast path); others go through the standard library's
/// correctly rounded parser.

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
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var digits = 0
        var seenPoint = false
        while index < end {
            let byte = text[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                digits += 1
                if mantissa == 0 && digit == 0 {
                    if seenPoint { exponent -= 1 }
                } else if significantDigits < 19 {
                    mantissa = mantissa * 10 + UInt64(digit)
                    significantDigits += 1
                    if seenPoint { exponent -= 1 }
                } else {
                    significantDigits += 1
                    if !seenPoint { exponent += 1 }
                }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
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

        var value: Double
        if mantissa == 0 {
            value = 0
        } else if significantDigits <= 15 && exponent >= -22 && exponent <= 22 {
            value = Double(mantissa)
            value = exponent < 0 ? value / powerOfTen(-exponent) : value * powerOfTen(exponent)
        } else {
            let slice = UnsafeBufferPointer(start: text + start, count: end - start)
            value = Double(String(decoding: slice, as: UTF8.self)) ?? .infinity
            guard value.isFinite else { return .failure(.notFinite) }
            return .success(value)
        }
        guard value.isFinite else { return .failure(.notFinite) }
        return .success(negative ? -value : value)
    }

    /// 10^exponent for 0…22, all exactly representable.
    private static func powerOfTen(_ exponent: Int) -> Double {
        var value = 1.0
        var remaining = exponent
        var factor = 10.0
        while remaining > 0 {
            if remaining & 1 == 1 { value *= factor }
            factor *= factor
            remaining >>= 1
        }
        return value
    }

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
