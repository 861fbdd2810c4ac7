import Foundation
import Testing
@testable import location_router

@Suite struct MergeCommandTests {
    static func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    @Test func partitionsMergeIntoTheWholeRunsCountsWithThresholds() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let common = ["--devices", "120", "--duration", "40", "--no-events", "--quiet", "--seed", "3"]
        let whole = await runCommand(common + ["--report", folder + "/whole.json"])
        #expect(whole.status == .success)
        var reports: [String] = []
        for index in 0..<4 {
            let path = folder + "/r\(index).json"
            let part = await runCommand(common + ["--partition", "\(index)/4", "--shards", "\(1 + index % 2)", "--report", path])
            #expect(part.status == .success, "\(part.err)")
            reports.append(path)
        }
        let merged = await runCommand(["merge"] + reports + ["--report", folder + "/merged.json", "--threshold", "dropped == 0"])
        #expect(merged.status == .success, "\(merged.err)")
        #expect(merged.out.contains("Merged 4 reports: partitions 0, 1, 2, 3 of 4."))
        #expect(merged.out.contains("✓ dropped == 0"))
        let a = try Self.json(folder + "/whole.json")
        let b = try Self.json(folder + "/merged.json")
        for key in ["devices", "updates", "eventsEmitted", "regions", "monitoredRegions", "simulatedSeconds"] {
            #expect((a[key] as? NSNumber) == (b[key] as? NSNumber), "\(key)")
        }
        #expect((a["events"] as? [String: Int]) == (b["events"] as? [String: Int]))
        #expect(Set(b.keys).subtracting(a.keys) == ["merged", "thresholds"])
        #expect(Set(a.keys).subtracting(b.keys).isEmpty)
        #expect((a["partition"] as? [String: Int]) == ["index": 0, "count": 1])
        #expect((a["configuration"] as? String) == (b["configuration"] as? String))

        let failing = await runCommand(["merge"] + reports + ["--no-report", "--quiet", "--threshold", "updates < 1"])
        #expect(failing.status == .thresholdNotMet)
        #expect(failing.err.contains("✗ updates < 1"))

        let missing = await runCommand(["merge", reports[0], reports[2], "--no-report"])
        #expect(missing.status == .invalidInput)
        #expect(missing.err.contains("2 of 4 partitions missing: 1, 3"))
        let partial = await runCommand(["merge", reports[0], reports[2], "--no-report", "--allow-missing", "--quiet"])
        #expect(partial.status == .success)
        #expect(partial.err.contains("MISSING partitions: 1, 3"))

        let twice = await runCommand(["merge", reports[0], reports[0], "--no-report"])
        #expect(twice.status == .invalidInput && twice.err.contains("appears twice"))

        let other = folder + "/other.json"
        _ = await runCommand(["--devices", "120", "--duration", "41", "--no-events", "--quiet", "--seed", "3", "--partition", "1/4", "--report", other])
        let mixed = await runCommand(["merge", reports[0], other, reports[2], reports[3], "--no-report"])
        #expect(mixed.status == .invalidInput && mixed.err.contains("different configurations"))
    }

    @Test func badInputsExitWithTheirCodes() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(await runCommand(["merge"]).status == .usage)
        #expect(await runCommand(["merge", folder + "/none.json"]).status == .inputMissing)
        let bad = folder + "/bad.json"
        try Data(#"{"devices":1}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let invalid = await runCommand(["merge", bad, "--no-report"])
        #expect(invalid.status == .invalidInput)
        #expect(invalid.err.contains("bad.json"))
        #expect(await runCommand(["--partition", "4/4", "--no-report", "--no-events"]).status == .usage)
        #expect(await runCommand(["merge", "--help"]).out.contains("USAGE: location-router merge"))
    }
}
