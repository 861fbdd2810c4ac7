import Foundation
import TestSupport
import Testing
@testable import location_router
import LocationRouter

/// `--html` on `run` and `--compare-profiles`, and `location-router report FILE --html PATH`.
@Suite struct HTMLReportTests {
    private func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func runWritesThePageAndReportRendersTheSameFromTheSavedJSON() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--devices", "200", "--duration", "120", "--no-events", "--report", directory + "/report.json",
            "--html", directory + "/run.html", "--threshold", "dropped == 0",
        ])
        #expect(run.status == .success, "\(run.err)")
        let page = try read(directory + "/run.html")
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("id=\"map-tracks\"") && page.contains("id=\"wall-updates\"") && page.contains("thresholds passed"))
        #expect(!page.contains("http") && !page.contains("<script"))

        let again = await runCommand(["report", directory + "/report.json", "--html", directory + "/again.html"])
        #expect(again.status == .success, "\(again.err)")
        #expect(try read(directory + "/again.html") == page)
    }

    @Test func aComparisonPageShowsTheProfilesSideBySide() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--compare-profiles", "ios,android", "--score", "--devices", "100", "--duration", "300", "--no-report",
            "--html", directory + "/compare.html", "--quiet",
        ])
        #expect(run.status == .success, "\(run.err)")
        let page = try read(directory + "/compare.html")
        for id in [
            "comparison-table", "comparison-counts", "comparison-delays", "profiles-table", "map-regions", "score-rates",
            "score-latency", "score-table",
        ] {
            #expect(page.contains("id=\"\(id)\""), "missing #\(id)")
        }
        #expect(page.contains(">ios<") && page.contains(">android<"))
        // Each profile's score side by side: exact, ios, android columns of the score table.
        let scoreTable = try #require(page.range(of: "id=\"score-table\"").map { String(page[$0.upperBound...].prefix(400)) })
        #expect(scoreTable.contains(">exact<") && scoreTable.contains(">ios<") && scoreTable.contains(">android<"))
        #expect(page.contains(">recall<"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/report.json"))
    }

    @Test func reportExplainsBadInvocations() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = await runCommand(["report", directory + "/none.json", "--html", directory + "/x.html"])
        #expect(missing.status == .inputMissing)
        try "{\"not\":\"a report\"}".write(toFile: directory + "/other.json", atomically: true, encoding: .utf8)
        let other = await runCommand(["report", directory + "/other.json", "--html", directory + "/x.html"])
        #expect(other.status == .invalidInput)
        #expect(other.err.contains("not a location-router report"))
        let noHTML = await runCommand(["report", directory + "/other.json"])
        #expect(noHTML.status == .usage)
        #expect(noHTML.err.contains("--html"))
        let help = await runCommand(["report", "--help"])
        #expect(help.status == .success && help.out.contains("USAGE: location-router report"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/x.html"))
    }

    @Test func anUnwritablePageIsAUsageErrorBeforeTheRun() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "--devices", "10", "--duration", "10", "--no-events", "--no-report", "--html", directory + "/missing/page.html",
        ])
        #expect(run.status == .usage)
        #expect(run.err.contains("--html"))
    }
}
