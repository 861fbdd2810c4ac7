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
    ])
    func anIdleOptionIsWarnedAbout(arguments: [String], warning: String) async {
        let run = await runCommand(Self.common + arguments)
        #expect(run.err.contains("warning: " + warning), "\(run.err)")
    }

    @Test func optionsWithWhatTheyNeedAreNotWarnedAbout() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await runCommand(
            Self.common + [
                "--snapshot-interval", "5", "--state", folder + "/state.ndjson", "--score", "--score-tolerance", "30",
                "--threshold", "score.recall > 0.5",
            ])
        #expect(run.status == .success, "\(run.err)")
        #expect(!run.err.contains("warning"), "\(run.err)")
    }
}
