import TestSupport
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// A row of a `device,lat,lon,time` file read straight from a block's bytes (``OrderedCSVRow``) gives exactly the
/// fields that ``SampleDecoder/plainCSVFields(line:header:)`` gives for the same line cut at its line feed, and the
/// line's true end; every other row is left to the general reader.
@Suite struct OrderedCSVRowTests {
    // The first two spellings of each list are valid.
    private static let devices = [
        "bus-17", "device-9999", "", " bus", "bus ", "\"bus\"", "b\"us", "bü-7", "\u{FEFF}x", "a\tb",
        "dev-12345678901", "abcdefgh", "abcdefghijklmnop", "a",
    ]
    private static let numbers = [
        "25.047812345678903", "-89.99999999999999", "-121.5", "0", "-0", "+25.5", " 25.5", "25.5 ", "95.5", "-181",
        "1e3", "25.", ".5", "0025.5", "25.0478123456789012345", "12", "\"25.5\"", "", "121.67575018241301",
    ]
    private static let times = [
        "1795248000", "0", "1795248000.25", "+1795248000", "0001795248000", "-12", "999999999999", "9999999999999",
        "2026-11-21T08:00:00Z", "1795248000 ", "", "x", "12345678",
    ]
    private static let endings = ["\n", "\r\n", "\n", "\r\r\n", "\r", " \n", ",\n", ",3.5\n"]

    /// Seeded rows of the spellings above, with a field too few now and then, one after another in a block: where
    /// the ordered reader answers, it answers as the one-pass reader does on the line alone, and ends the row at
    /// its line feed.
    @Test func everyRowItReadsItReadsAsTheOnePassReader() async throws {
        let (orderedCount, differing) = try await inBackground {
            var random = SplitMix64(seed: 34)
            // Half the picks from the valid spellings, so that many rows are valid.
            func pick(_ values: [String]) -> String {
                let from = random.next() % 2 == 0 ? 2 : values.count
                return values[Int(random.next() % UInt64(from))]
            }
            let header = try CSVSampleHeader("device,lat,lon,time")
            var text = ""
            for _ in 0..<30_000 {
                var values = [pick(Self.devices), pick(Self.numbers), pick(Self.numbers), pick(Self.times)]
                if random.next() % 10 == 0 { values.removeLast() }
                text += values.joined(separator: ",") + pick(Self.endings)
            }
            // The last row without a line feed.
            text += "last-1,1.5,2.5,1795248000"
            return orderedReadings(of: Array(text.utf8), by: OrderedCSVRow.self) {
                SampleDecoder.plainCSVFields(line: $0, header: header)
            }
        }
        #expect(differing.isEmpty, "\(differing.count) rows read otherwise: \(differing.prefix(10))")
        #expect(orderedCount > 1_000)
    }

    /// The rows of real feeds take the ordered path, a carriage return before the line feed included.
    @Test(arguments: [
        "device-0,24.996404428750978,121.67575018241301,1795248000\n", "bus-17,-25,-121.517,0\r\n",
        "abcdefghijklmnopq,0,0,1795248000",
    ])
    func commonRowsAreReadStraight(row: String) throws {
        let bytes = Array(row.utf8)
        let read = bytes.withUnsafeBufferPointer { OrderedCSVRow.read($0, from: 0) }
        #expect(read != nil)
        #expect(read?.lineEnd == bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count)
    }
}
