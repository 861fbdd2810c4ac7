import Foundation
import TestSupport
import Testing
@testable import location_router

/// Options the rest of a run leaves with nothing to act on are warned about before it starts; with what they need
/// beside them, they are not.
@Suite struct IdleOptionTests {
    static let common = ["--devices", "10", "--duration", "5", "--no-events", "--no-report", "--quiet"]

    @Test(arguments: [
        (["--snapshot-interval", "5"], "--snapshot-interval (state.interval) has nothing to save without --state PATH"),
        (["--score-tolerance", "30"], "--score-tolerance is used only with --score or --target"),
        (["--threshold", "score.recall > 0.5", "--threshold", "score.missed < 3"],
            "the threshold score.recall > 0.5 (and 1 more) has no value without --score: it will not be met"),
        (["--refresh-distance", "100"],
            "--refresh-distance is used only with --selection nearest (monitor.selection); this run's selection is fileOrder"),
        (["--refresh-interval", "10", "--proximity-radius", "50"],
            "--refresh-interval and --proximity-radius are used only with --selection nearest"),
        (["--compare-profiles", "ios", "--webhook", "http://127.0.0.1:9/"],
            "--webhook is not called under --compare-profiles"),
    ])
    func anIdleOptionIsWarnedAbout(arguments: [String], warning: String) async {
        let run = await runCommand(Self.common + arguments)
        #expect(run.err.contains("warning: " + warning), "\(run.err)")
    }

    @Test func anEventsFileBesideACompareProfilesRunIsWarnedAbout() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let events = folder + "/events.ndjson"
        let run = await runCommand(
            ["--devices", "10", "--duration", "5", "--no-report", "--quiet", "--compare-profiles", "ios", "--events", events])
        #expect(run.status == .success, "\(run.err)")
        #expect(run.err.contains("warning: --events \(events) is not written under --compare-profiles"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: events))
    }

    @Test func optionsWithWhatTheyNeedAreNotWarnedAbout() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await runCommand(
            Self.common + [
                "--snapshot-interval", "5", "--state", folder + "/state.ndjson", "--score", "--score-tolerance", "30",
                "--threshold", "score.recall > 0.5", "--catalog", "100", "--selection", "nearest", "--refresh-distance",
                "100", "--proximity-radius", "50",
            ])
        #expect(run.status == .success, "\(run.err)")
        #expect(!run.err.contains("warning"), "\(run.err)")
    }

    @Test func optionsOfAnotherSourceAreWarnedAbout() async throws {
        let quiet = ["--no-events", "--no-report", "--quiet"]
        // The random walk: playback's options.
        let walk = await runCommand(["--devices", "3", "--duration", "5", "--speed", "3", "--stagger", "5"] + quiet)
        #expect(walk.status == .success, "\(walk.err)")
        #expect(walk.err.contains("warning: --speed (source.playback.speed) is ignored: the random walk does not use it"))
        #expect(walk.err.contains("warning: --stagger (source.playback.stagger) is ignored"))
        // A route: the walk's.
        let route = await runCommand(
            ["--source", "route:25.0478,121.517;25.0340,121.5645", "--duration", "60", "--speed", "20"] + quiet)
        #expect(route.status == .success, "\(route.err)")
        #expect(route.err.contains(
            "warning: --duration (source.duration) is ignored: GPX and route playback does not use it"), "\(route.err)")
        #expect(!route.err.contains("--speed"), "\(route.err)")
        // Standard input: both, and the devices and interval the samples bring themselves.
        let stdin = try runExecutable(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--devices", "5", "--interval", "2",
             "--stops", "0.3", "--time-jitter", "5"] + quiet,
            stdin: "")
        #expect(stdin.status == 0, "\(stdin.err)")
        for option in ["--devices (source.devices)", "--interval (source.interval)", "--stops (source.stops)",
                       "--time-jitter (source.playback.timeJitter)"] {
            #expect(stdin.err.contains("warning: \(option) is ignored: samples on standard input does not use it"),
                    "\(stdin.err)")
        }
    }
}
