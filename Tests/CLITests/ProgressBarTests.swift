import Foundation
import Testing
@testable import location_router

/// The progress line's text, from what the run has done: a bar with the time left when the total is known,
/// counts and rate when it is not, never wider than the terminal.
@Suite struct ProgressBarTests {
    @Test func aKnownTotalShowsTheBarPercentageSimulatedTimeAndTimeLeft() {
        let bar = ProgressBar(updates: 3_000_000, events: 12_345, elapsed: 2, simulatedDone: 150, simulatedTotal: 600)
        let line = bar.line(columns: 120)
        #expect(line.contains(" 25%"))
        #expect(line.contains("2.5 / 10.0 min simulated"))
        #expect(line.contains("1.50 M updates/s"))
        // A quarter done in 2 s: 6 s left.
        #expect(line.contains("ETA 6 s"))
        let cells = line.filter { $0 == "█" || $0 == "░" }
        #expect(cells.count >= 10 && line.filter { $0 == "█" }.count == cells.count / 4)
    }

    @Test func anUnknownTotalShowsCountsAndRateOnly() {
        let line = ProgressBar(updates: 1_234_567, events: 89, elapsed: 10).line(columns: 100)
        #expect(line.contains("1,234,567 updates · 89 events · 123,456 updates/s · 10 s"))
        #expect(!line.contains("%") && !line.contains("ETA") && !line.contains("█"))
    }

    @Test(arguments: [20, 40, 60, 80, 200])
    func theLineNeverFillsTheTerminal(columns: Int) {
        for bar in [
            ProgressBar(updates: 123_456_789, events: 9_876_543, elapsed: 3_700, simulatedDone: 86_000, simulatedTotal: 864_000),
            ProgressBar(updates: 123_456_789, events: 9_876_543, elapsed: 3_700),
        ] {
            #expect(bar.line(columns: columns).count <= columns - 1)
        }
    }

    @Test func theEndAndTheStartAreShownAsSuch() {
        #expect(ProgressBar(updates: 0, events: 0, elapsed: 0, simulatedDone: nil, simulatedTotal: 60).line(columns: 100).contains("ETA –"))
        #expect(ProgressBar(updates: 10, events: 0, elapsed: 1, simulatedDone: 60, simulatedTotal: 60).line(columns: 100).contains("100%"))
        #expect(ProgressBar.clock(3_725) == "1:02:05" && ProgressBar.clock(185) == "3:05" && ProgressBar.clock(42) == "42 s")
    }

    @Test func nothingIsDrawnWhenStandardErrorIsNotATerminal() async throws {
        let run = await runCommand(["--devices", "500", "--duration", "300", "--no-events", "--no-report"])
        #expect(run.status == .success)
        #expect(!run.err.contains("\r") && !run.out.contains("\r") && !run.err.contains("\u{1B}"))
    }
}
