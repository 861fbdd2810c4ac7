import Foundation
import LocationRouter

/// A progress line on standard error while a run goes on, redrawn twice a second (terminals only).
final class ProgressLine: Sendable {
    private let task: Task<Void, Never>
    private let console: Console

    init(progress: PipelineProgress, console: Console) {
        self.console = console
        let started = Date()
        task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 500_000_000)
                let seconds = Date().timeIntervalSince(started)
                let rate = seconds > 0 ? Double(progress.updates) / seconds : 0
                console.err(
                    "\r\u{1B}[K  \(grouped(progress.updates)) updates, \(grouped(progress.events)) events, "
                        + "\(grouped(Int(rate))) updates/s, \(decimal(seconds, 1)) s")
            }
        }
    }

    func stop() async {
        task.cancel()
        await task.value
        console.err("\r\u{1B}[K")
    }
}
