import Testing

@testable import GeofenceFormats
import GeofenceKit

/// The sample decoders' fast number parser gives the standard library's correctly rounded value for every plain
/// decimal it takes, and leaves every other text to the general reader.
@Suite struct PlainDecimalParserTests {
    private func parsed(_ text: String) -> (value: Double, end: Int, isInteger: Bool)? {
        Array(text.utf8).withUnsafeBufferPointer { PlainDecimalParser.parse($0, from: 0) }
    }

    /// Seeded random decimals of 1 to 19 significant digits, 0 to 25 of them after the point, some with leading
    /// zeros after it (`0.000…`), either sign: the same `Double` as `Double(String)`.
    @Test func randomDecimalsMatchTheStandardParser() throws {
        var random = SplitMix64(seed: 15)
        var mismatches: [String] = []
        for _ in 0..<300_000 {
            let digits = 1 + Int(random.next() % 19)
            var text = String(1 + random.next() % 9)
            for _ in 1..<digits { text.append(String(random.next() % 10)) }
            let point = Int(random.next() % UInt64(min(digits, 25) + 1))
            if point > 0 {
                text.insert(".", at: text.index(text.endIndex, offsetBy: -point))
                if text.first == "." { text = "0" + text }
            }
            if random.next() % 8 == 0, !text.contains(".") {
                text = "0." + String(repeating: "0", count: Int(random.next() % 6)) + text
            }
            if random.next() % 2 == 0 { text = "-" + text }
            let expected = try #require(Double(text))
            guard let (value, end, _) = parsed(text), end == text.utf8.count else {
                mismatches.append("\(text): not parsed")
                continue
            }
            if value.bitPattern != expected.bitPattern { mismatches.append("\(text): \(value) ≠ \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// The same with the rest of a line after the number, so that the fraction's last digits are read up to eight
    /// at a time (the parser does that only while eight bytes are left): the same value, and the end at the comma.
    @Test func decimalsInsideALineMatchTheStandardParser() throws {
        var random = SplitMix64(seed: 16)
        var mismatches: [String] = []
        for _ in 0..<100_000 {
            let digits = 1 + Int(random.next() % 19)
            var text = String(1 + random.next() % 9)
            for _ in 1..<digits { text.append(String(random.next() % 10)) }
            let point = Int(random.next() % UInt64(digits + 1))
            if point > 0 {
                text.insert(".", at: text.index(text.endIndex, offsetBy: -point))
                if text.first == "." { text = "0" + text }
            }
            let expected = try #require(Double(text))
            let line = text + ",121.51234567,1795248000"
            let parsed = Array(line.utf8).withUnsafeBufferPointer { PlainDecimalParser.parse($0, from: 0) }
            guard let (value, end, _) = parsed, end == text.utf8.count else {
                mismatches.append("\(text): not parsed")
                continue
            }
            if value.bitPattern != expected.bitPattern { mismatches.append("\(text): \(value) ≠ \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// The word-at-a-time path answers as the digit-by-digit reader does for every text it sees — values, ends and
    /// refusals alike: decimals of every layout it takes (one to eight integer digits, a leading zero or not, up to
    /// 22 fraction digits, short and long), and near misses, each followed by every byte and enough of a line that
    /// the path runs.
    @Test func wordsAndDigitsAgree() {
        var random = SplitMix64(seed: 17)
        var texts: [String] = []
        for integerDigits in 1...8 {
            for fractionDigits in 0...22 {
                for _ in 0..<6 {
                    var text = String(random.next() % 10)
                    if integerDigits > 1 { text = String(1 + random.next() % 9) }
                    for _ in 1..<integerDigits { text.append(String(random.next() % 10)) }
                    if fractionDigits > 0 || random.next() % 2 == 0 { text.append(".") }
                    for _ in 0..<fractionDigits { text.append(String(random.next() % 10)) }
                    if random.next() % 3 == 0 { text = "-" + text }
                    texts.append(text)
                }
            }
        }
        texts += [
            "0.0", "-0.0", "0.000000000000000001", "00.5", "0.", "-.5", "1..5", "12345678.5", "9.9999999999999999999",
        ]
        var mismatches: [String] = []
        for text in texts {
            for next in [UInt8](0...255) {
                let line = Array(text.utf8) + [next] + Array(",121.51234567,1795248000,".utf8)
                let (words, digits) = line.withUnsafeBufferPointer {
                    (PlainDecimalParser.parse($0, from: 0), PlainDecimalParser.parseDigitByDigit($0, from: 0))
                }
                let same =
                    switch (words, digits) {
                    case (nil, nil): true
                    case let (a?, b?):
                        a.value.bitPattern == b.value.bitPattern && a.end == b.end && a.isInteger == b.isInteger
                    default: false
                    }
                if !same {
                    mismatches.append("\(text) + \(next): \(words as Any) ≠ \(digits as Any)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Up to eight digits at once: every count of leading digits, followed by every kind of byte.
    @Test func leadingDigitsCountAndValue() {
        for count in 0...8 {
            for next in [UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"), 0xFF, 0x00] {
                var bytes = Array("73905812".utf8.prefix(count))
                bytes += Array(repeating: next, count: 8 - count)
                let expected = count == 0 ? 0 : UInt64(String(decoding: bytes.prefix(count), as: UTF8.self))!
                let (value, digits) = bytes.withUnsafeBufferPointer { EightBytes.leadingDigits(at: 0, in: $0) }
                #expect(digits == count && value == expected, "\(bytes)")
            }
        }
    }

    /// A CSV row's device name ends where a byte-by-byte walk ends it: at the first comma, quote or line feed, or
    /// refused (its start) when a byte from 0x80 up comes first. Names of 0 to 20 bytes with every byte at every
    /// place, alone and before a second such byte, so that each lands at every place in a word and after a flag.
    @Test func asciiNameEndsWhereAByteWalkEndsIt() {
        func walked(_ bytes: [UInt8]) -> Int {
            for (index, byte) in bytes.enumerated() {
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") {
                    return index
                }
                if byte >= 0x80 { return 0 }
            }
            return bytes.count
        }
        var mismatches: [String] = []
        for length in 0...20 {
            for place in 0..<max(length, 1) {
                for byte in [UInt8](0...255) {
                    for second: UInt8 in [UInt8(ascii: "x"), UInt8(ascii: " "), 0xC3, UInt8(ascii: ",")] {
                        var name = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        if length > 0 { name[place] = byte }
                        if place + 3 < length { name[place + 3] = second }
                        let row = name + Array(",25.5,121.5,1795248000\n".utf8)
                        let end = row.withUnsafeBufferPointer { EightBytes.endOfASCIIName(in: $0, from: 0) }
                        if end != walked(row) { mismatches.append("\(name): \(end) ≠ \(walked(row))") }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Full-precision coordinates as a fleet feed writes them (`Double.description`): read back to the same bits.
    @Test func shortestRoundTripCoordinatesReadBackExactly() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<100_000 {
            let value = random.uniform(-180...180)
            let text = "\(value)"
            guard !text.contains("e") else { continue }
            #expect(parsed(text)?.value == value, "\(text)")
        }
    }

    @Test func valuesEndsAndIntegerness() {
        #expect(parsed("25.0478,")?.value == 25.0478)
        #expect(parsed("25.0478,")?.end == 7)
        #expect(parsed("-0")?.value.bitPattern == (-0.0 as Double).bitPattern)
        #expect(parsed("17}")?.isInteger == true)
        #expect(parsed("17.0 ")?.isInteger == false)
        #expect(parsed("0.0000001234567890123456789")?.value == 1.234567890123456789e-7)
    }

    /// Texts the general reader must see: it reads them, or says what is wrong with them.
    @Test(arguments: ["", "-", "+1", ".5", "1.", "01", "-01.5", "1e5", "1.5E-3", "1.5x", "1.5\n", "NaN",
        "12345678901234567890", "1.2345678901234567890", "0.1234567890123456789012345678"])
    func otherTextsAreLeftToTheGeneralReader(text: String) {
        #expect(parsed(text) == nil)
    }
}
