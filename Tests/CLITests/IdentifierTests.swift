import Foundation
import TestSupport
import Testing

/// Identifiers are exact Unicode scalar sequences: ids that differ only in normalisation are different.
@Suite struct IdentifierTests {
    private let composed = "caf\u{E9}"
    private let decomposed = "cafe\u{301}"

    @Test func theTwoSpellingsAreEqualAsSwiftStringsButNotAsIdentifiers() {
        #expect(composed == decomposed)  // what made them one device before
        #expect(Array(composed.unicodeScalars) != Array(decomposed.unicodeScalars))
    }

    @Test func devicesThatDifferOnlyInNormalisationAreTwoDevices() throws {
        let lines = [composed, decomposed].enumerated().map { index, name in
            #"{"device":"\#(name)","lat":25.06,"lon":121.517,"time":"2026-11-21T08:00:0\#(index)Z"}"#
        }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try runExecutable(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--no-events", "--quiet",
             "--report", directory + "/report.json"],
            stdin: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.err)")
        let report = try String(contentsOfFile: directory + "/report.json", encoding: .utf8)
        #expect(report.contains("\"devices\":2"))
    }

    @Test func regionsThatDifferOnlyInNormalisationAreNotDuplicates() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let features = [composed, decomposed].map { id in
            #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[121.5,25.0]},"properties":{"radius":100}}"#
        }
        let path = directory + "/regions.geojson"
        try #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
            .write(toFile: path, atomically: false, encoding: .utf8)
        let run = try runExecutable(["check", "--json", path], stdin: "")
        #expect(run.status == 0, "\(run.out) \(run.err)")
        #expect(run.out.contains("\"valid\":true"))
        #expect(!run.out.contains("duplicate"))
    }
}
