import Foundation
import TestSupport
import Testing
@testable import location_router

@Suite struct CheckCommandTests {
    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func validFilesAreDescribedAndExit0() async throws {
        let run = await runCommand(["check", "--json", fixture("taipei-regions.geojson"), fixture("walk.ndjson"), fixture("walk.csv"), projectRoot + "/config.json"])
        #expect(run.status == .success, "\(run.out)")
        let objects = try Self.objects(run.out)
        #expect(objects.map { $0["kind"] as? String } == ["geojson", "samples", "samples", "config"])
        #expect(objects.allSatisfy { $0["valid"] as? Bool == true })
        #expect(objects[0]["regions"] as? Int == 3)
        #expect(objects[0]["circles"] as? Int == 2)
        #expect(objects[0]["polygons"] as? Int == 1)
        #expect(objects[1]["samples"] as? Int == 8)
        #expect(objects[1]["devices"] as? Int == 2)
        #expect(objects[1]["firstTime"] as? String == "2026-11-21T08:00:00Z")
        #expect(objects[1]["lastTime"] as? String == "2026-11-21T08:25:00Z")
        #expect(objects[2]["format"] as? String == "csv")
        #expect(objects[2]["samples"] as? Int == 3)
        for object in objects {
            #expect(object["errors"] as? [Any] != nil && object["warnings"] as? [Any] != nil && object["file"] is String)
        }
    }

    @Test func invalidFilesListTheirErrorsWithLinesAndExit65() async throws {
        let run = await runCommand(["check", "--json", fixture("bad-lines.ndjson"), fixture("bad-regions.geojson"), fixture("bad-config.json")])
        #expect(run.status == .invalidInput)
        let objects = try Self.objects(run.out)
        #expect(objects.allSatisfy { $0["valid"] as? Bool == false })
        let lineErrors = try #require(objects[0]["errors"] as? [[String: Any]])
        #expect(lineErrors.map { $0["line"] as? Int } == [2, 4])
        #expect((lineErrors.first?["message"] as? String)?.hasPrefix("lat") == true)
        #expect(objects[0]["samples"] as? Int == 2)
        let regionErrors = try #require(objects[1]["errors"] as? [[String: Any]])
        #expect((regionErrors.first?["message"] as? String)?.contains("features[1].properties.radius") == true)
        #expect(regionErrors.first?["line"] as? Int == 5)
        let configErrors = try #require(objects[2]["errors"] as? [[String: Any]])
        #expect((configErrors.first?["message"] as? String)?.contains("source.speed.max") == true)
    }

    @Test func humanOutputNamesTheFileAndTheProblem() async {
        let run = await runCommand(["check", fixture("bad-lines.ndjson")])
        #expect(run.status == .invalidInput)
        #expect(run.out.contains("bad-lines.ndjson: samples, INVALID"))
        #expect(run.out.contains("line 2") || run.out.contains(":2:"))
    }

    /// A config's regions file is checked with it, as `run` would read it: missing (66), invalid (65), and its
    /// shared catalog against the config's profile and selection (a config naming a missing file was "valid").
    @Test func aConfigsRegionsFileIsCheckedWithIt() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let features = (0..<30).map { k in
            #"{"type":"Feature","id":"store-\#(k)","geometry":{"type":"Point","coordinates":[121.5,\#(25 + Double(k) / 100)]},"properties":{"radius":100}}"#
        }
        let catalog = folder + "/catalog.geojson"
        try #"{"type":"FeatureCollection","features":["#.appending(features.joined(separator: ",")).appending("]}")
            .write(toFile: catalog, atomically: false, encoding: .utf8)
        func check(_ regionsFile: String, _ more: String = "") async throws -> CapturedRun {
            let config = folder + "/config.json"
            try #"{"source": {"kind": "stdin"}, "regions": {"file": "\#(regionsFile)"}\#(more)}"#
                .write(toFile: config, atomically: false, encoding: .utf8)
            return await runCommand(["check", config])
        }
        let missing = try await check(folder + "/none.geojson")
        #expect(missing.status == .inputMissing)
        #expect(missing.out.contains("a scenario whose regions.file cannot be used"), "\(missing.out)")
        #expect(missing.out.contains("\(folder)/none.geojson: no such file"), "\(missing.out)")
        let invalid = try await check(fixture("bad-regions.geojson"))
        #expect(invalid.status == .invalidInput, "\(invalid.out)")
        let shared = try await check(catalog)
        #expect(shared.status == .success)
        #expect(shared.out.contains("larger than the slot limit (20)"), "\(shared.out)")
        #expect(shared.out.contains("regions.file \(catalog): 30 regions"), "\(shared.out)")
        for other in [#", "monitor": {"selection": "nearest"}"#, #", "profile": "android""#] {
            let quiet = try await check(catalog, other)
            #expect(quiet.status == .success)
            #expect(!quiet.out.contains("slot limit"), "\(other): \(quiet.out)")
        }
    }

    @Test func aMissingFileExits66() async {
        let run = await runCommand(["check", "/nonexistent/regions.geojson"])
        #expect(run.status == .inputMissing)
        #expect(run.out.contains("no such file"))
    }
}
