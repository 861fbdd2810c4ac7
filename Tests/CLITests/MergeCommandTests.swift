import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing
@testable import location_router

@Suite(.serialized) struct MergeCommandTests {
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
        let merged = await runCommand(
            ["merge"] + reports + ["--report", folder + "/merged.json", "--threshold", "dropped == 0", "--html", folder + "/merged.html"])
        #expect(merged.status == .success, "\(merged.err)")
        // The merged page: well-formed, self-contained, with the merged summary.
        let page = try String(contentsOfFile: folder + "/merged.html", encoding: .utf8)
        #expect(XMLParser(data: Data(page.utf8)).parse())
        #expect(page.contains("Summary") && !page.contains("http://") && !page.contains("https://"))
        #expect(merged.out.contains("Merged 4 reports: partitions 0, 1, 2, 3 of 4."))
        #expect(merged.out.contains("✓ dropped == 0"))
        // Where the partitions' events went is theirs to say: not "counted, not written".
        #expect(merged.out.contains(" by the partitions, dropped 0"), "\(merged.out)")
        let a = try Self.json(folder + "/whole.json")
        let b = try Self.json(folder + "/merged.json")
        for key in ["devices", "updates", "eventsEmitted", "regions", "monitoredRegions", "simulatedSeconds"] {
            #expect((a[key] as? NSNumber) == (b[key] as? NSNumber), "\(key)")
        }
        #expect((a["events"] as? [String: Int]) == (b["events"] as? [String: Int]))
        #expect(Set(b.keys).subtracting(a.keys) == ["merged", "thresholds"])
        // The page's recording (`--html`) is not merged.
        #expect(Set(a.keys).subtracting(b.keys).isSubset(of: ["timeline", "latencyHistogram", "map"]))
        #expect((a["partition"] as? [String: Int]) == ["index": 0, "count": 1])
        #expect((a["configuration"] as? String) == (b["configuration"] as? String))

        // An independent merge from the partitions' JSON: bucket sums, the documented percentile rule, and
        // throughput over the union of the wall-clock windows.
        let parts = try reports.map(Self.json)
        var buckets: [UInt64: (width: UInt64, count: UInt64)] = [:]
        var minimum = UInt64.max
        var maximum: UInt64 = 0
        var windows: [(Double, Double)] = []
        for part in parts {
            let histogram = try #require(part["latencyBuckets"] as? [String: Any])
            for bucket in histogram["buckets"] as? [[NSNumber]] ?? [] {
                let lower = bucket[0].uint64Value
                buckets[lower] = (bucket[1].uint64Value, (buckets[lower]?.count ?? 0) + bucket[2].uint64Value)
            }
            if (histogram["count"] as? NSNumber)?.uint64Value ?? 0 > 0 {
                minimum = min(minimum, (histogram["minNs"] as? NSNumber)?.uint64Value ?? .max)
            }
            maximum = max(maximum, (histogram["maxNs"] as? NSNumber)?.uint64Value ?? 0)
            let clock = try #require(part["wallClock"] as? [String: Double])
            windows.append((clock["start"]!, clock["end"]!))
        }
        let total = buckets.values.reduce(0) { $0 + $1.count }
        #expect(total == (b["eventsEmitted"] as? NSNumber)?.uint64Value)
        func percentile(_ q: Double) -> Double {
            let rank = max(1, UInt64((Double(total) * q).rounded(.up)))
            var seen: UInt64 = 0
            for lower in buckets.keys.sorted() {
                seen += buckets[lower]!.count
                if seen >= rank { return Double(min(max(lower + (buckets[lower]!.width - 1) / 2, minimum), maximum)) / 1e6 }
            }
            return Double(maximum) / 1e6
        }
        let latency = try #require(b["latencyMs"] as? [String: Double])
        for (name, q) in [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p999", 0.999)] {
            #expect(abs(latency[name]! - percentile(q)) < 0.0006, "\(name)")
        }
        #expect(abs(latency["max"]! - Double(maximum) / 1e6) < 0.0006)
        windows.sort { $0.0 < $1.0 }
        var union = 0.0
        var open = windows[0]
        for window in windows.dropFirst() {
            if window.0 <= open.1 { open.1 = max(open.1, window.1) } else { union += open.1 - open.0; open = window }
        }
        union += open.1 - open.0
        let updates = (b["updates"] as? NSNumber)?.doubleValue ?? 0
        #expect(abs(((b["wallSeconds"] as? NSNumber)?.doubleValue ?? 0) - union) < 0.002)
        #expect(abs(((b["updatesPerSecond"] as? NSNumber)?.doubleValue ?? 0) - (updates / union).rounded()) <= 1)

        let failing = await runCommand(["merge"] + reports + ["--no-report", "--quiet", "--threshold", "updates < 1"])
        #expect(failing.status == .thresholdNotMet)
        #expect(failing.err.contains("✗ updates < 1"))

        let missing = await runCommand(["merge", reports[0], reports[2], "--no-report"])
        #expect(missing.status == .invalidInput)
        #expect(missing.err.contains("2 of 4 partitions missing: 1, 3"))
        let partialPath = folder + "/partial.json"
        let partial = await runCommand(["merge", reports[0], reports[2], "--report", partialPath, "--allow-missing", "--quiet"])
        #expect(partial.status == .success)
        #expect(partial.err.contains("MISSING partitions: 1, 3"))
        // A merged report merged again: alone, as it is, still lacking what it lacked; beside others, refused.
        let again = await runCommand(["merge", partialPath, "--no-report"])
        #expect(again.status == .invalidInput)
        #expect(again.err.contains("partial.json is a merged report that lacks 2 of 4 partitions: 1, 3"), "\(again.err)")
        let kept = await runCommand(["merge", partialPath, "--allow-missing", "--report", folder + "/again.json", "--quiet"])
        #expect(kept.status == .success, "\(kept.err)")
        let keptReport = try Self.json(folder + "/again.json")
        #expect((keptReport["merged"] as? [String: Any])?["missing"] as? [Int] == [1, 3])
        #expect(keptReport["devices"] as? Int == (try Self.json(partialPath))["devices"] as? Int)
        let beside = await runCommand(["merge", partialPath, reports[1], "--no-report"])
        #expect(beside.status == .invalidInput && beside.err.contains("is a merged report already"), "\(beside.err)")

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
        // What a run that cannot drain writes: refused for what it is, not for its version.
        let partial = folder + "/partial.json"
        try Data(#"{"updates":22528,"eventsEmitted":1065,"profile":"exact","seed":42,"version":"0.1.0","interrupted":true,"stoppedBy":"SIGINT","complete":false}"#.utf8)
            .write(to: URL(fileURLWithPath: partial))
        let cut = await runCommand(["merge", partial, "--no-report"])
        #expect(cut.status == .invalidInput)
        #expect(cut.err.contains("partial.json: a partial report (\"complete\": false"), "\(cut.err)")
        #expect(!cut.err.contains("older version"), "\(cut.err)")
        #expect(await runCommand(["--partition", "4/4", "--no-report", "--no-events"]).status == .usage)
        #expect(await runCommand(["merge", "--help"]).out.contains("USAGE: location-router merge"))
    }

    @Test func noOutputReplacesAnInputOrAnotherOutput() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let common = ["--devices", "20", "--duration", "5", "--no-events", "--quiet"]
        var reports: [String] = []
        for index in 0..<2 {
            reports.append(folder + "/r\(index).json")
            #expect(await runCommand(common + ["--partition", "\(index)/2", "--report", reports[index]]).status == .success)
        }
        let before = try reports.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        // Another spelling of the same file, and a link to it, are the same file.
        let link = folder + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: reports[1])
        let refusals: [([String], String)] = [
            (["merge"] + reports + ["--report", reports[0]], "--report \(reports[0]) is the report \(reports[0]), which this command reads"),
            (["merge"] + reports + ["--report", folder + "/./r1.json"], "which this command reads"),
            (["merge"] + reports + ["--report", folder + "/m.json", "--html", link], "--html \(link) is the report"),
            (["merge"] + reports + ["--report", folder + "/m.json", "--html", folder + "/m.json"], "are the same file"),
            (["report", reports[1], "--html", reports[1]], "which this command reads"),
            (common + ["--regions", fixture("taipei-regions.geojson"), "--report", fixture("taipei-regions.geojson")],
                "--report \(fixture("taipei-regions.geojson")) is --regions"),
        ]
        for (arguments, message) in refusals {
            let run = await runCommand(arguments)
            #expect(run.status == .usage, "\(arguments)")
            #expect(run.err.contains(message), "\(arguments): \(run.err)")
        }
        #expect(try reports.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        #expect(!FileManager.default.fileExists(atPath: folder + "/m.json"))
    }
}
