import Foundation
import LocationRouter

/// The progress bar on standard error while a run goes on (terminals only, never with `--quiet`): redrawn at
/// most ten times a second in place, and erased when the run ends or is interrupted.
final class ProgressLine: Sendable {
    private let task: Task<Void, Never>
    private let console: Console

    init(progress: PipelineProgress, console: Console) {
        self.console = console
        let started = Date()
        task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 100_000_000)
                if Task.isCancelled { break }
                var bar = ProgressBar(
                    updates: progress.updates, events: progress.events, elapsed: Date().timeIntervalSince(started))
                if let span = progress.expectedSpan {
                    bar.simulatedTotal = Double(span.end.microseconds - span.start.microseconds) / 1e6
                    bar.simulatedDone = progress.latestTime.map { Double($0.microseconds - span.start.microseconds) / 1e6 }
                }
                console.err("\r\u{1B}[K" + bar.line(columns: Self.columns()))
            }
        }
    }

    func stop() async {
        task.cancel()
        await task.value
        console.err("\r\u{1B}[K")
    }

    /// The width of the terminal on standard error (80 when it cannot be told).
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
