import TestSupport
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// An NDJSON line with the keys in the order feeds write them, read straight from a block's bytes
/// (``OrderedNDJSONLine``), gives exactly the fields that ``SampleDecoder/plainNDJSONFields(line:)`` gives for the
/// same line cut at its line feed, and the line's true end; every other line is left to the general reader.
@Suite struct OrderedNDJSONLineTests {
    // The first two spellings of each list are valid.
    private static let devices = [
        #""bus-17""#, #""device-9999""#, #""""#, #""bü-7""#, #""a\"b""#, #""a\u0041""#, "17", #"" bus""#, "null",
        #""abcdefghijklmnop""#, #""a""#,
    ]
    private static let numbers = [
        "25.047812345678903", "-89.99999999999999", "-121.5", "0", "-0", "+25.5", "95.5", "-181", "1e3", "25.", ".5",
        "0025.5", "25.0478123456789012345", "12", #""25.5""#, "null", "121.67575018241301",
    ]
    private static let times = [
        "1795248000", "0", "1795248000.25", "-12", "999999999999", "9999999999999", #""2026-11-21T08:00:00Z""#, "x",
        "12345678", "null",
    ]
    /// What may stand where the keys and the brace are expected.
    private static let keys = [
        [#"{"device":"#, #","lat":"#, #","lon":"#, #","time":"#, "}"],
        [#"{"device":"#, #","lat":"#, #","lon":"#, #","time":"#, "}"],
        [#"{ "device":"#, #","lat":"#, #","lon":"#, #","time":"#, "}"],
        [#"{"device":"#, #", "lat":"#, #","lon":"#, #","time":"#, "}"],
        [#"{"device":"#, #","lat":"#, #","lon":"#, #","time":"#, #","accuracy":3.5}"#],
        [#"{"device":"#, #","lon":"#, #","lat":"#, #","time":"#, "}"],
        [#"{"device":"#, #","lat":"#, #","lon":"#, #","time" :"#, "}"],
        [#"{"device":"#, #","lat":"#, #","lon":"#, #","time":"#, "} "],
        [#"{"devic":"#, #","lat":"#, #","lon":"#, #","time":"#, "}"],
    ]
    private static let endings = ["\n", "\r\n", "\n", "\r\r\n", "\r", " \n"]

    /// Seeded lines of the spellings above one after another in a block: where the ordered reader answers, it
    /// answers as the one-pass reader does on the line alone, and ends the line at its line feed.
    @Test func everyLineItReadsItReadsAsTheOnePassReader() async throws {
        let (orderedCount, differing) = try await inBackground {
            var random = SplitMix64(seed: 35)
            // Half the picks from the valid spellings, so that many lines are valid.
            func pick<T>(_ values: [T]) -> T {
                let from = random.next() % 2 == 0 ? 2 : values.count
                return values[Int(random.next() % UInt64(from))]
            }
            var text = ""
            for _ in 0..<30_000 {
                let keys = pick(Self.keys)
                let values = [pick(Self.devices), pick(Self.numbers), pick(Self.numbers), pick(Self.times)]
                text += zip(keys, values).map { $0 + $1 }.joined() + keys[4] + pick(Self.endings)
            }
            // The last line without a line feed.
            text += #"{"device":"last-1","lat":1.5,"lon":2.5,"time":1795248000}"#
            return orderedReadings(of: Array(text.utf8), by: OrderedNDJSONLine.self) {
                SampleDecoder.plainNDJSONFields(line: $0)
            }
        }
        #expect(differing.isEmpty, "\(differing.count) lines read otherwise: \(differing.prefix(10))")
        #expect(orderedCount > 1_000)
    }

    /// The words compared are the texts' bytes.
    @Test func theTextsAreTheirWords() {
        func word(_ text: String) -> UInt64 {
            text.utf8.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        #expect(OrderedNDJSONLine.Text.openingAndDevice == word(#"{"device"#))
        #expect(OrderedNDJSONLine.Text.colonAndQuote == word(#"":""#))
        #expect(OrderedNDJSONLine.Text.latitude == word(#"","lat":"#))
        #expect(OrderedNDJSONLine.Text.longitude == word(#","lon":"#))
        #expect(OrderedNDJSONLine.Text.time == word(#","time":"#))
    }

    /// The lines of real feeds take the ordered path, a carriage return before the line feed included.
    @Test(arguments: [
        #"{"device":"device-0","lat":24.996404428750978,"lon":121.67575018241301,"time":1795248000}"# + "\n",
        #"{"device":"bus-17","lat":-25,"lon":-121.517,"time":0}"# + "\r\n",
        #"{"device":"abcdefghijklmnopq","lat":0,"lon":0,"time":1795248000}"#,
    ])
    func commonLinesAreReadStraight(line: String) throws {
        let bytes = Array(line.utf8)
        let read = bytes.withUnsafeBufferPointer { OrderedNDJSONLine.read($0, from: 0) }
        #expect(read != nil)
        #expect(read?.lineEnd == bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count)
    }
}
