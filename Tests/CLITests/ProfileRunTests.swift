import Foundation
import TestSupport
import Testing
@testable import location_router

/// Profiles and the divergence report from the command line.
@Suite struct ProfileRunTests {
    static func report(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func theProfilesDifferAsDocumented() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var counts: [String: [String: Int]] = [:]
        for profile in ["exact", "ios", "android"] {
            let run = await runCommand([
                "--profile", profile, "--devices", "100", "--duration", "120", "--loitering-delay", "30", "--no-events",
                "--report", "\(directory)/\(profile).json",
            ])
            #expect(run.status == .success, "\(run.err)")
            let report = try Self.report("\(directory)/\(profile).json")
            #expect(report["profile"] as? String == profile)
            counts[profile] = report["events"] as? [String: Int]
        }
        // iOS reports every region's initial state and a state with every transition and, with its hysteresis,
        // fewer transitions.
        let iosTransitions = (counts["ios"]?["enter"] ?? 0) + (counts["ios"]?["exit"] ?? 0)
        #expect(counts["ios"]?["state"] == 2_000 + iosTransitions)
        #expect((counts["ios"]?["enter"] ?? 0) < (counts["exact"]?["enter"] ?? 0))
        // Android dwells only where a region's transition types ask (generated regions do not); exact never does
        // unless asked.
        #expect(counts["android"]?["dwell"] == 0)
        #expect((counts["android"]?["enter"] ?? 0) > 0)
        #expect(counts["exact"]?["dwell"] == 0)
    }

    @Test func deniedAndWhenInUseDevicesAreCountedByReason() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--devices", "200", "--duration", "600", "--authorization", "always=0.5,whenInUse=0.3,denied=0.2",
            "--no-events", "--report", directory + "/report.json",
        ])
        #expect(run.status == .success, "\(run.err)")
        let report = try Self.report(directory + "/report.json")
        let failed = try #require(report["failed"] as? [String: Int])
        let suppressed = try #require(report["suppressed"] as? [String: Int])
        #expect((failed["denied"] ?? 0) > 0 && (failed["denied"] ?? 0) % 20 == 0)
        #expect((suppressed["background"] ?? 0) > 0)
        #expect(run.out.contains("suppressed"))
    }

    @Test func compareProfilesReportsHowEachProfileDiffersFromExact() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--compare-profiles", "ios,android", "--devices", "100", "--duration", "300", "--accuracy", "10",
            "--report", directory + "/report.json",
        ])
        #expect(run.status == .success, "\(run.err)")
        #expect(run.out.contains("Profiles vs exact"))
        let report = try Self.report(directory + "/report.json")
        let comparison = try #require(report["comparison"] as? [[String: Any]])
        #expect(comparison.compactMap { $0["profile"] as? String } == ["ios", "android"])
        let profiles = try #require(report["profiles"] as? [String: Any])
        #expect(profiles.keys.sorted() == ["android", "exact", "ios"])
        // Every exact event is either matched or missed by each profile.
        let exactEnters = (report["events"] as? [String: Int])?["enter"] ?? -1
        for entry in comparison {
            let enter = try #require(entry["enter"] as? [String: Any])
            #expect((enter["matched"] as? Int ?? 0) + (enter["missed"] as? Int ?? 0) == exactEnters)
        }
    }

    @Test(arguments: [
        (["--authorization", "always=2"], "'--authorization <shares>'"),
        (["--authorization", "sometimes=0.5"], "'--authorization <shares>'"),
        (["--compare-profiles", "ios,symbian"], "'--compare-profiles <list>'"),
        (["--initial-trigger", "enter,bounce"], "'--initial-trigger <t>'"),
        (["--initial-trigger", "none,state"], "'--initial-trigger <t>'"),
        (["--initial-trigger", ""], "'--initial-trigger <t>'"),
        // Shares were scaled to their sum: this denied half the devices.
        (["--authorization", "always=0.2,denied=0.2"], "the shares add up to 0.4, not 1"),
        (["--authorization", "whenInUse=0.7,denied=0.6"], "the shares add up to 1.3, not 1"),
        // A delay refused says which bound it broke.
        (["--delivery", "lognormal:300,180"], "lognormal's P95 (180) must be ≥ its MEDIAN (300)"),
        (["--delivery", "lognormal:0,180"], "lognormal's MEDIAN must be > 0 seconds"),
        (["--delivery", "fixed:1e9"], "fixed's S must be at most 86400 seconds (a day)"),
        (["--delivery", "fixed:-1"], "fixed's S must be ≥ 0 seconds"),
        (["--delivery", "lognormal:1"], "'--delivery <delay>' (instant, fixed:SECONDS or lognormal:MEDIAN,P95)"),
    ])
    func badProfileOptionsAreUsageErrors(arguments: [String], message: String) async {
        let run = await runCommand(arguments)
        #expect(run.status == .usage)
        #expect(run.err.contains(message))
    }
}
