import TestSupport
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// A CSV row of the common shape, read in one pass (``SampleDecoder/plainCSVFields(line:header:)``), gives exactly
/// the fields the general reader gives; every other row is left to the general reader, which reads it or names what
/// is wrong.
@Suite struct PlainCSVRowTests {
    private static let headers = ["device,lat,lon,time", "device,lat,lon,time,accuracy", "time,speed,lon,device,lat"]

    /// Field spellings, valid and not, that the rows below combine.
    private static let devices = ["bus-17", "", " bus", "bus ", "\"bus\"", "b\"us", "bü-7", "\u{FEFF}x", "a\tb", "dev-12345678901"]
    private static let numbers = [
        "25.047812345678903", "-121.5", "0", "-0", "+25.5", " 25.5", "25.5 ", "95.5", "-181", "1e3", "25.", ".5",
        "0025.5", "25.0478123456789012345", "12", "\"25.5\"", "",
    ]
    private static let times = [
        "1795248000", "1795248000.25", "+1795248000", "0001795248000", "-12", "999999999999", "9999999999999",
        "2026-11-21T08:00:00Z", "2026-11-21T08:00:00", "1795248000 ", "", "x", "12345678",
    ]
    private static let accuracies = ["", "3.5", "-1", "0", "-0", "+2", " 4", "nan"]

    private func fields(_ row: String, _ header: CSVSampleHeader) -> (plain: String?, general: String) {
        onePassReading(
            of: row, plain: { SampleDecoder.plainCSVFields(line: $0, header: header) },
            general: { line throws(SampleDecodingError) in
                try SampleDecoder.scannedCSVFields(line: line, header: header, lineNumber: 1)
            })
    }

    /// Seeded rows that mix the spellings above in every header's column order, with a field too many or too few
    /// now and then: where the one-pass reader answers, it answers as the general reader does.
    @Test func everyRowItReadsItReadsAsTheGeneralReader() async throws {
        let (plainCount, differing) = try await inBackground {
            var random = SplitMix64(seed: 21)
            var plainCount = 0
            var differing: [String] = []
            for header in Self.headers {
                let parsed = try CSVSampleHeader(header)
                for _ in 0..<20_000 {
                    func pick(_ values: [String]) -> String { values[Int(random.next() % UInt64(values.count))] }
                    var values = parsed.columns.map { column -> String in
                        switch column {
                        case "device": pick(Self.devices)
                        case "lat", "lon": pick(Self.numbers)
                        case "time": pick(Self.times)
                        case "accuracy": pick(Self.accuracies)
                        default: pick(["12.5", "", "fast", "\"a,b\""])
                        }
                    }
                    switch random.next() % 10 {
                    case 0: values.append("extra")
                    case 1: values.removeLast()
                    default: break
                    }
                    let row = values.joined(separator: ",")
                    let (plain, general) = self.fields(row, parsed)
                    if let plain {
                        plainCount += 1
                        if plain != general { differing.append("\(header): \(row)") }
                    }
                }
            }
            return (plainCount, differing)
        }
        #expect(differing.isEmpty, "\(differing.count) rows read otherwise: \(differing.prefix(10))")
        #expect(plainCount > 500)
    }

    /// The rows of real feeds take the one-pass path.
    @Test(arguments: [
        "device-0,24.996404428750978,121.67575018241301,1795248000", "bus-17,25.0478,121.517,2026-11-21T08:00:00Z",
        "bus-17,-25,-121.517,1795248000.5", "ü,0,0,0",
    ])
    func commonRowsAreReadInOnePass(row: String) throws {
        let header = try CSVSampleHeader("device,lat,lon,time")
        let (plain, general) = fields(row, header)
        #expect(plain != nil)
        #expect(plain == general)
    }

    /// An empty accuracy is no accuracy; an accuracy column may be the last.
    @Test func emptyAccuracyIsAbsent() throws {
        let header = try CSVSampleHeader("device,lat,lon,time,accuracy")
        let (plain, general) = fields("a,1.5,2.5,1795248000,", header)
        #expect(plain == "a|\((1.5).bitPattern)|\((2.5).bitPattern)|1795248000000000|-")
        #expect(plain == general)
        let withAccuracy = fields("a,1.5,2.5,1795248000,7.25", header)
        #expect(withAccuracy.plain == "a|\((1.5).bitPattern)|\((2.5).bitPattern)|1795248000000000|\((7.25).bitPattern)")
        #expect(withAccuracy.plain == withAccuracy.general)
    }
}
