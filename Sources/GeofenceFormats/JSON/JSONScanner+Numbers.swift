import GeofenceKit

// JSON numbers: syntax checked byte by byte, value converted with the text kept for exact decimal use.

extension JSONScanner {
    /// Scans a number per RFC 8259 and converts it to the nearest `Double`.
    ///
    /// Numbers of at most 19 digits are converted exactly by ``DecimalConversion`` (every coordinate, full
    /// precision included); others go through the standard library's correctly rounded parser. Values beyond `Double` become ±infinity; callers decide.
    mutating func readNumber() throws(InputError) -> NumberToken {
        let start = offset
        let startMark = mark
        let negative = consume(UInt8(ascii: "-"))
        guard let first = peek(), first &- UInt8(ascii: "0") < 10 else {
            throw unexpected(expected: "a digit").withNonFiniteHint(spelled: spellsNonFinite)
        }
        // Every digit goes into the mantissa, leading zeros included; beyond 19 digits it may have overflowed,
        // and the count sends the number to the general parser.
        var mantissa: UInt64 = 0
        var digits = 0
        var decimalExponent = 0
        var isInteger = true
        if first == UInt8(ascii: "0") {
            offset += 1
            digits = 1
            if let next = peek(), next &- UInt8(ascii: "0") < 10 {
                throw InputError("numbers must not have leading zeros", line: startMark.line, column: startMark.column)
            }
        } else {
            let integerStart = offset
            accumulateDigits(into: &mantissa)
            digits = offset - integerStart
        }
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard let byte = peek(), byte &- UInt8(ascii: "0") < 10 else {
                throw unexpected(expected: "a digit after the decimal point")
            }
            let fractionStart = offset
            accumulateDigits(into: &mantissa)
            digits += offset - fractionStart
            decimalExponent = fractionStart - offset
        }
        if let byte = peek(), byte | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            offset += 1
            var exponentNegative = false
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                offset += 1
            }
            guard let digit = peek(), digit &- UInt8(ascii: "0") < 10 else {
                throw unexpected(expected: "a digit in the exponent")
            }
            var exponent = 0
            while let byte = peek(), byte &- UInt8(ascii: "0") < 10 {
                exponent = min(exponent * 10 + Int(byte &- UInt8(ascii: "0")), 100_000)
                offset += 1
            }
            decimalExponent += exponentNegative ? -exponent : exponent
        }
        let span = start..<offset
        guard let value = DecimalConversion.double(mantissa: mantissa, digits: digits, exponent: decimalExponent)
        else {
            let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self))
                ?? (negative ? -.infinity : .infinity)
            return NumberToken(span: span, value: value, isIntegerText: isInteger)
        }
        return NumberToken(span: span, value: negative ? -value : value, isIntegerText: isInteger)
    }

    /// Reads digits into `mantissa` (wrapping past 19 digits: the caller counts them) up to the first non-digit.
    @inline(__always)
    mutating func accumulateDigits(into mantissa: inout UInt64) {
        guard let base = bytes.baseAddress else { return }
        var index = offset
        let end = bytes.count
        var value = mantissa
        while index < end {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            index += 1
        }
        mantissa = value
        offset = index
    }

    /// The text of a scanned span, for error messages and raw number text.
    func text(of span: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self)
    }
}
