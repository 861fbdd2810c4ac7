import Foundation
import LocationRouter
import TestSupport
import Testing
@testable import location_router

/// `--partition` through the command line: separate processes, each given the same input.
@Suite(.serialized) struct PartitionRunTests {
    static let regions = fixture("taipei-regions.geojson")

    /// A stream of 30 devices around Taipei Main Station, with a bad line.
    static var stream: String {
        var lines: [String] = []
        for step in 0..<600 {
            let device = (step * 7) % 30
            let latitude = 25.0478 + Double((step * 13) % 21 - 10) * 0.0006
            lines.append(#"{"device":"bus-\#(device)","lat":\#(latitude),"lon":121.517,"time":\#(1_795_248_000 + step)}"#)
            if step == 100 { lines.append("{broken") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the executable with `input` on standard input, without holding a thread of the shared pool.
    static func run(_ arguments: [String], input: String, in folder: String) async throws -> (status: Int32, out: String, err: String) {
        let name = UUID().uuidString
        let (out, err) = (folder + "/\(name).out", folder + "/\(name).err")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = try executableProcess(arguments, in: folder)
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try await runToExit(process)
        return (process.terminationStatus, try String(contentsOfFile: out, encoding: .utf8),
            try String(contentsOfFile: err, encoding: .utf8))
    }

    @Test func streamPartitionsAsProcessesUniteIntoTheWholeRun() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/samples.ndjson"
        try Self.stream.write(toFile: input, atomically: false, encoding: .utf8)
        let common = ["--source", "stdin", "--regions", Self.regions, "--events", "-", "--no-report", "--quiet",
            "--authorization", "always=0.6,whenInUse=0.3,denied=0.1", "--accuracy", "20"]
        let whole = try await Self.run(common, input: input, in: folder)
        #expect(whole.status == 0, "\(whole.err)")
        var union: [Substring] = []
        for index in 0..<3 {
            let part = try await Self.run(common + ["--partition", "\(index)/3"], input: input, in: folder)
            #expect(part.status == 0)
            union += part.out.split(separator: "\n")
            // Only the first partition reports the line no partition owns.
            #expect(part.err.contains("stdin:102:") == (index == 0), "\(part.err)")
        }
        let expected = whole.out.split(separator: "\n")
        #expect(expected.count > 10)
        #expect(union.sorted() == expected.sorted())
    }

    /// Each partition's truth is its own devices': the partitions' `--ground-truth` files are the whole run's truth,
    /// once, and their `--score`s add up to the whole run's (the random walk, and a stream).
    @Test func eachPartitionScoresAgainstTheTruthOfItsOwnDevices() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/samples.ndjson"
        try Self.stream.write(toFile: input, atomically: false, encoding: .utf8)
        let sources = [
            ["--devices", "60", "--duration", "300", "--seed", "5"], ["--source", "stdin", "--regions", Self.regions],
        ]
        for source in sources {
            let common = source + ["--score", "--no-events", "--quiet"]
            let whole = try await Self.run(
                common + ["--ground-truth", "whole.ndjson", "--report", "whole.json"], input: input, in: folder)
            #expect(whole.status == 0, "\(whole.err)")
            let truth = try String(contentsOfFile: folder + "/whole.ndjson", encoding: .utf8).split(separator: "\n")
            #expect(truth.count > 20, "\(source)")
            let wholeReport = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/whole.json")))
            let wholeScore = try #require((wholeReport as? [String: Any])?["score"] as? [String: Any])
            var union: [Substring] = []
            var matched = 0
            for index in 0..<3 {
                let part = try await Self.run(
                    common + ["--partition", "\(index)/3", "--ground-truth", "t\(index).ndjson", "--report", "r\(index).json"],
                    input: input, in: folder)
                #expect(part.status == 0, "\(part.err)")
                let own = try String(contentsOfFile: folder + "/t\(index).ndjson", encoding: .utf8).split(separator: "\n")
                union += own
                let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/r\(index).json")))
                let score = try #require((report as? [String: Any])?["score"] as? [String: Any])
                #expect(score["truth"] as? Int == own.count, "\(source) \(index)")
                matched += score["matched"] as? Int ?? 0
            }
            #expect(union.sorted() == truth.sorted(), "\(source)")
            #expect(wholeScore["truth"] as? Int == truth.count, "\(source)")
            #expect(matched == wholeScore["matched"] as? Int, "\(source)")
            #expect(matched > 0, "\(source)")
        }
    }

    @Test func thePartitionKeyOfTheConfigIsCheckedLikeTheOption() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = folder + "/good.json"
        try Data(#"{"partition": "1/3"}"#.utf8).write(to: URL(fileURLWithPath: good))
        let command = try RunCommand(arguments: ["--config", good], console: CapturedOutput().console, workingDirectory: folder)
        #expect(command.scenario.partition == Partition(index: 1, count: 3))
        let overridden = try RunCommand(
            arguments: ["--config", good, "--partition", "2/5"], console: CapturedOutput().console, workingDirectory: folder)
        #expect(overridden.scenario.partition == Partition(index: 2, count: 5))
        let bad = folder + "/bad.json"
        try Data(#"{"partition": "3/3"}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let run = await runCommand(["--config", bad, "--no-report", "--no-events"])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("partition: must be I/N"))
        let usage = await runCommand(["--partition", "1/0", "--no-report", "--no-events"])
        #expect(usage.status == .usage)
        #expect(usage.err.contains("'--partition <I/N>'"))
    }
}
