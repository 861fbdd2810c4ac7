import Testing

@testable import GeofenceFormats
import GeofenceKit

/// Whole Unix seconds read in place (``Timestamp/wholeUnixSeconds(in:from:)``) are what
/// ``Timestamp/parseUnixSeconds(_:)-(String)`` reads, up to the end of ``Timestamp/textRange``.
@Suite struct TimestampUnixSecondsTests {
    @Test func theLastWholeSecondIsTheRangesLast() {
        let upper = Timestamp.textRange.upperBound.microseconds
        #expect(Timestamp.lastWholeSecond * 1_000_000 <= upper)
        #expect((Timestamp.lastWholeSecond + 1) * 1_000_000 > upper)
    }

    @Test(arguments: [
        "0", "7", "12", "12345678", "123456789", "1795248000", "17952480001", "253402300799", "253402300800",
        "999999999999", "9999999999999", "0001795248000", "1795248000,", "1795248000}", "17952480x", "x",
        "1795248000.5", "12345678901234567890",
    ])
    func wholeSecondsReadAsTheGeneralReaderReadsThem(text: String) {
        let bytes = Array(text.utf8)
        let whole = bytes.withUnsafeBufferPointer { Timestamp.wholeUnixSeconds(in: $0, from: 0) }
        guard let (time, end) = whole else {
            // Refused: not whole seconds of 1 to 12 digits in the range (the general reader reads or refuses those).
            let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            let general = try? Timestamp.parseUnixSeconds(String(decoding: digits, as: UTF8.self))
            #expect(digits.isEmpty || digits.count > 12 || general == nil)
            return
        }
        let digits = String(decoding: bytes[..<end], as: UTF8.self)
        #expect(bytes[..<end].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        #expect(end == bytes.count || !(bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9")))
        #expect(time == (try? Timestamp.parseUnixSeconds(digits)))
    }
}
