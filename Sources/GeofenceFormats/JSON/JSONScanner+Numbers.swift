import GeofenceKit

// JSON numbers: syntax checked byte by byte, value converted with the text kept for exact decimal use.

extension JSONScanner {
    /// Scans a number per RFC 8259 and converts it to the nearest `Double`.
    ///
    /// Numbers with at most 15 significant digits and a small exponent (every GPS coordinate) are converted
    /// exactly with one multiplication or division (Clinger's fast path), fractions of up to 19 digits with one
    /// integer division (``DecimalConversion``); others go through the standard library's correctly rounded
    /// parser. Values beyond `Double` become ±infinity; callers decide.
    mutating func readNumber() throws(InputError) -> NumberToken {
        let start = offset
        let startMark = mark
        let negative = consume(UInt8(ascii: "-"))
        guard let first = peek(), first &- UInt8(ascii: "0") < 10 else {
            throw unexpected(expected: "a digit").withNonFiniteHint(spelled: spellsNonFinite)
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var decimalExponent = 0
        var isInteger = true
        if first == UInt8(ascii: "0") {
            offset += 1
            if let next = peek(), next &- UInt8(ascii: "0") < 10 {
                throw InputError("numbers must not have leading zeros", line: startMark.line, column: startMark.column)
            }
        } else {
            while let byte = peek(), byte &- UInt8(ascii: "0") < 10 {
                Self.accumulate(byte, into: &mantissa, &significantDigits, &decimalExponent, isFraction: false)
                offset += 1
            }
        }
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard let byte = peek(), byte &- UInt8(ascii: "0") < 10 else {
                throw unexpected(expected: "a digit after the decimal point")
            }
            while let byte = peek(), byte &- UInt8(ascii: "0") < 10 {
                Self.accumulate(byte, into: &mantissa, &significantDigits, &decimalExponent, isFraction: true)
                offset += 1
            }
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
        var value: Double
        if mantissa == 0 {
            value = 0
        } else if significantDigits <= 15, (-22...22).contains(decimalExponent) {
            value = Double(mantissa)
            value = decimalExponent < 0 ? value / Self.powersOfTen[-decimalExponent]
                : value * Self.powersOfTen[decimalExponent]
        } else if significantDigits <= 19, decimalExponent <= 0,
            let exact = DecimalConversion.double(mantissa: mantissa, negativePowerOfTen: -decimalExponent)
        {
            value = exact
        } else {
            value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self))
                ?? (negative ? -.infinity : .infinity)
            return NumberToken(span: span, value: value, isIntegerText: isInteger)
        }
        return NumberToken(span: span, value: negative ? -value : value, isIntegerText: isInteger)
    }

    /// Adds one digit to the mantissa, keeping at most 19 (the rest only shift the exponent and force the slow
    /// path, which rereads the text).
    @inline(__always)
    static func accumulate(
        _ byte: UInt8, into mantissa: inout UInt64, _ significantDigits: inout Int, _ exponent: inout Int,
        isFraction: Bool
    ) {
        let digit = UInt64(byte &- UInt8(ascii: "0"))
        if mantissa == 0 && digit == 0 {
            if isFraction { exponent -= 1 }
            return
        }
        if significantDigits < 19 {
            mantissa = mantissa * 10 + digit
            if isFraction { exponent -= 1 }
        } else if !isFraction {
            exponent += 1
        }
        significantDigits += 1
    }

    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The text of a scanned span, for error messages and raw number text.
    func text(of span: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self)
    }
}
