import Foundation
import TestSupport
import Testing
@testable import location_router

/// Thresholds from `--threshold` and config.json: exit 0 when met, 99 when not, 65/64 when unreadable.
@Suite struct ThresholdRunTests {
    static let smallRun = ["--devices", "50", "--duration", "30", "--no-events", "--shards", "2"]

    static func thresholds(_ path: String) throws -> [[String: Any]] {
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return try #require(report["thresholds"] as? [[String: Any]])
    }

    @Test func aRunThatMeetsItsThresholdsExits0AndListsThem() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand(Self.smallRun + [
            "--report", directory + "/report.json", "--threshold", "dropped == 0", "--threshold=updates>0",
            "--threshold", "latencyMs.p99 < 60000",
        ], workingDirectory: directory)
        #expect(run.status == .success, "\(run.err)")
        #expect(run.out.contains("Thresholds: all 3 met\n  ✓ dropped == 0 (was 0)\n  ✓ updates > 0 (was 1550)\n"))
        let thresholds = try Self.thresholds(directory + "/report.json")
        #expect(thresholds.compactMap { $0["expression"] as? String } == ["dropped == 0", "updates > 0", "latencyMs.p99 < 60000"])
        #expect(thresholds.allSatisfy { $0["passed"] as? Bool == true })
        #expect(thresholds[1]["value"] as? Int == 1_550)
    }

    @Test func anImpossibleThresholdExits99AndNamesIt() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand(Self.smallRun + [
            "--report", directory + "/report.json", "--threshold", "dropped == 0",
            "--threshold", "updatesPerSecond > 1e15",
        ], workingDirectory: directory)
        #expect(run.status == .thresholdNotMet)
        #expect(run.out.contains("Thresholds: 1 of 2 not met\n  ✓ dropped == 0 (was 0)\n  ✗ updatesPerSecond > 1e15 (was "))
        // The report is written all the same, with the verdicts.
        let thresholds = try Self.thresholds(directory + "/report.json")
        #expect(thresholds.map { $0["passed"] as? Bool } == [true, false])
        #expect(thresholds[1]["metric"] as? String == "updatesPerSecond")
        #expect(thresholds[1]["value"] is NSNumber)
    }

    @Test func quietRunsStillPrintFailedThresholdsOnStandardError() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = ["--report", directory + "/report.json"]
        let failing = await runCommand(Self.smallRun + report + [
            "--quiet", "--threshold", "dropped == 0", "--threshold", "events.enter < 0",
        ])
        #expect(failing.status == .thresholdNotMet)
        #expect(failing.out.isEmpty)
        #expect(failing.err.contains("Thresholds: 1 of 2 not met\n  ✗ events.enter < 0 (was "))
        #expect(!failing.err.contains("dropped == 0"))

        let passing = await runCommand(Self.smallRun + report + ["--quiet", "--threshold", "dropped == 0"])
        #expect(passing.status == .success, "\(passing.err)")
        #expect(passing.out.isEmpty && passing.err.isEmpty)
    }

    @Test func withEventsOnStandardOutputThresholdsGoToStandardError() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--devices", "5", "--duration", "10", "--events", "-", "--report", directory + "/report.json",
            "--threshold", "dropped != 0",
        ])
        #expect(run.status == .thresholdNotMet)
        #expect(run.err.contains("✗ dropped != 0 (was 0)"))
        #expect(!run.out.contains("Thresholds"))
    }

    @Test func configThresholdsApplyAndTheOptionReplacesThem() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/config.json"
        try #"{"events": null, "report": null, "thresholds": ["dropped == 0", "events.exit < 0"]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let fromConfig = await runCommand(["--config", config, "--devices", "50", "--duration", "30"])
        #expect(fromConfig.status == .thresholdNotMet)
        #expect(fromConfig.out.contains("✗ events.exit < 0"))

        let overridden = await runCommand([
            "--config", config, "--devices", "50", "--duration", "30", "--threshold", "events.exit >= 0",
        ])
        #expect(overridden.status == .success, "\(overridden.err)")
        #expect(overridden.out.contains("Thresholds: all 1 met\n  ✓ events.exit >= 0"))
    }

    @Test func aBadExpressionInTheConfigExits65NamingItsIndex() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/config.json"
        try #"{"thresholds": ["dropped == 0", "updates > 0", "latencyMs.p98 < 5"]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = await runCommand(["--config", config])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains(#"config.json:1:48: thresholds[2]: unknown metric "latencyMs.p98" (known: "#))

        try #"{"thresholds": ["dropped = 0"]}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let badOperator = await runCommand(["--config", config])
        #expect(badOperator.status == .invalidInput)
        #expect(badOperator.err.contains("thresholds[0]: expected an operator"))

        try #"{"thresholds": [5]}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let notAString = await runCommand(["--config", config])
        #expect(notAString.status == .invalidInput)
        #expect(notAString.err.contains("thresholds[0]: expected a string"))

        // `check` reads config files the same way.
        try #"{"thresholds": ["updates > lots"]}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let check = await runCommand(["check", config])
        #expect(check.status == .invalidInput)
        #expect((check.out + check.err).contains("thresholds[0]: expected a number after \">\", found \"lots\""))
    }

    @Test func aBadThresholdOptionIsAUsageError() async {
        let run = await runCommand(Self.smallRun + ["--threshold", "latencyMs.p99 =< 5"])
        #expect(run.status == .usage)
        #expect(run.err.contains("The value 'latencyMs.p99 =< 5' is invalid for '--threshold <expr>': expected an operator"))
        #expect(await runCommand(Self.smallRun + ["--threshold", "latencyMs.p98 < 5"]).status == .usage)
        #expect(await runCommand(Self.smallRun + ["--threshold"]).status == .usage)
    }

    @Test func compareProfilesRunsTestTheBaselineReport() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--compare-profiles", "ios", "--devices", "20", "--duration", "30", "--report", directory + "/report.json",
            "--threshold", "events.state == 0", "--threshold", "updates < 0",
        ])
        #expect(run.status == .thresholdNotMet)
        #expect(run.out.contains("✓ events.state == 0 (was 0)"))
        #expect(run.out.contains("✗ updates < 0 (was 620)"))
        #expect(try Self.thresholds(directory + "/report.json").count == 2)
    }
}
