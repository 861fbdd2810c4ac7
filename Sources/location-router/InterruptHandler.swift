import Dispatch
import Foundation
import LocationRouter

/// Turns SIGINT and SIGTERM into a graceful stop: the first one asks the run to drain and write its report
/// (exit 130), a second one exits at once.
final class InterruptHandler {
    private let sources: [any DispatchSourceSignal]

    init(stop: StopSignal, console: Console) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRequested {
                    console.err("\nInterrupted again: exiting without draining.\n")
                    _exit(ExitCode.interrupted.rawValue)
                }
                console.err("\nInterrupted: draining the pipeline and writing the report (again to exit at once)…\n")
                stop.request()
            }
            source.resume()
            return source
        }
    }

    /// Restores the default handling (the run is over).
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
