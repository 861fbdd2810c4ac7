import TestSupport
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// An NDJSON line of the common shape, read in one pass (``SampleDecoder/plainNDJSONFields(line:)``), gives exactly
/// the fields the general reader gives; every other line is left to the general reader, which reads it or names what
/// is wrong.
@Suite struct PlainNDJSONLineTests {
    /// Member spellings, valid and not, that the lines below combine.
    private static let members: [(key: String, values: [String])] = [
        ("device", [#""bus-17""#, #""""#, #""b\"us""#, #""bü""#, "17", "1.5", "null", #""dev-12345678901""#, #""a\tb""#]),
        ("lat", ["25.047812345678903", "-25.5", "0", "-0", "95.5", "1e1", "+2", "01", #""25""#, "null", "25."]),
        ("lon", ["121.67575018241301", "-181", "180", "12", "null", "121.5x"]),
        ("time", [
            "1795248000", "1795248000.25", "1.79e9", "-12", "9999999999999", #""2026-11-21T08:00:00Z""#,
            #""2026-11-21T08:00:00""#, #""2026-11-21T08:00:00.5+01:00""#, "null", #""x""#, "true",
        ]),
        ("accuracy", ["3.5", "0", "-1", "null", #""3""#]),
        ("speed", ["12.5"]),
        ("lat", ["25.5"]),
    ]

    private func fields(_ text: String) -> (plain: String?, general: String) {
        onePassReading(
            of: text, plain: { SampleDecoder.plainNDJSONFields(line: $0) },
            general: { line throws(SampleDecodingError) in try SampleDecoder.scannedNDJSONFields(line: line, lineNumber: 1) })
    }

    /// Seeded lines of the members above (each list's first spelling valid) in random order (a member left out now and then, the last two only
    /// rarely: another key, a repeated one), with whitespace or a trailing byte now and then: where the one-pass
    /// reader answers, it answers as the general reader does.
    @Test func everyLineItReadsItReadsAsTheGeneralReader() async throws {
        let (plainCount, differing) = try await inBackground {
            var random = SplitMix64(seed: 22)
            var plainCount = 0
            var differing: [String] = []
            for _ in 0..<60_000 {
                var members: [String] = []
                for (index, member) in Self.members.enumerated() {
                    let skip = index >= 5 ? random.next() % 8 != 0 : random.next() % 12 == 0
                    if skip { continue }
                    // The first spelling (a valid one) half of the time, so that many lines are valid.
                    let value = member.values[random.next() % 2 == 0 ? 0 : Int(random.next() % UInt64(member.values.count))]
                    members.append("\"\(member.key)\":\(value)")
                }
                for index in members.indices.reversed() {
                    members.swapAt(index, Int(random.next() % UInt64(index + 1)))
                }
                var line = "{" + members.joined(separator: ",") + "}"
                switch random.next() % 12 {
                case 0: line += " "
                case 1: line = line.replacingFirst(",", with: ", ")
                case 2: line += "x"
                case 3: line = line.replacingFirst(":", with: " :")
                default: break
                }
                let (plain, general) = self.fields(line)
                if let plain {
                    plainCount += 1
                    if plain != general { differing.append(line) }
                }
            }
            return (plainCount, differing)
        }
        #expect(differing.isEmpty, "\(differing.count) lines read otherwise: \(differing.prefix(10))")
        #expect(plainCount > 1_000)
    }

    /// The words the keys are compared with are the keys' bytes.
    @Test func keyWordsAreTheKeysBytes() {
        let words: [(UInt64, String)] = [
            (PlainKeyWord.device, "device"), (PlainKeyWord.latitude, "lat"), (PlainKeyWord.longitude, "lon"),
            (PlainKeyWord.time, "time"), (PlainKeyWord.accuracy, "accuracy"),
        ]
        for (word, name) in words {
            var packed: UInt64 = 0
            for (index, byte) in name.utf8.enumerated() { packed |= UInt64(byte) << UInt64(8 * index) }
            #expect(packed == word, "\(name)")
        }
    }

    /// The lines of real feeds take the one-pass path.
    @Test(arguments: [
        #"{"device":"device-0","lat":24.996404428750978,"lon":121.67575018241301,"time":1795248000}"#,
        #"{"device":"bus-17","lat":25.0478,"lon":121.517,"time":"2026-11-21T08:00:00Z","accuracy":5}"#,
        #"{"time":"2026-11-21T08:00:00.25+08:00","lon":-121.517,"lat":-25,"device":"x"}"#,
    ])
    func commonLinesAreReadInOnePass(line: String) {
        let (plain, general) = fields(line)
        #expect(plain != nil)
        #expect(plain == general)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}
