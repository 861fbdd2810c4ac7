import Dispatch
import Foundation
import LocationRouter
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a graceful stop: the first one asks the run to drain and write its
/// report, marked interrupted (exit 130, 143 or 129, after the first signal). A second signal — or a drain that
/// has not finished `drainDeadline` seconds after the first (a sink that no longer takes bytes, such as a FIFO
/// nobody reads) — writes a partial report (`"complete":false`) and exits at once.
final class InterruptHandler {
    private let sources: [any DispatchSourceSignal]
    private let received = FirstSignal()
    static let signals: [(number: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")]
    static let defaultDrainDeadline = 30.0
    private let drainDeadline: Double

    /// - Parameter abandon: writes what can be written before the process exits without draining.
    init(
        stop: StopSignal, console: Console, drainDeadline: Double = defaultDrainDeadline,
        abandon: @escaping @Sendable (_ signal: String) -> Void
    ) {
        self.drainDeadline = drainDeadline
        let received = received
        sources = Self.signals.map { number, name in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            // On a terminal, erase the line (the progress bar and the echoed ^C) instead of leaving it.
            let lineStart = console.errIsTerminal ? "\r\u{1B}[K" : "\n"
            source.setEventHandler {
                let first = received.number.withLock { first -> Int32? in
                    defer { first = first ?? number }
                    return first
                }
                if let first {
                    console.err(lineStart + "Interrupted again: writing a partial report and exiting without draining.\n")
                    abandon(Self.name(of: first))
                    _exit(Self.exitCode(for: first).rawValue)
                }
                console.err(lineStart + "\(name): draining the pipeline and writing the report (again to exit at once)…\n")
                stop.request()
                DispatchQueue.global().asyncAfter(deadline: .now() + drainDeadline) {
                    guard !received.drained.load(ordering: .acquiring) else { return }
                    console.err("\nThe drain did not finish in \(drainDeadline) s: writing a partial report and exiting.\n")
                    abandon(name)
                    _exit(Self.exitCode(for: number).rawValue)
                }
            }
            source.resume()
            return source
        }
    }

    /// The name of the first signal received, if any.
    var signalName: String? { received.number.withLock { $0 }.map(Self.name(of:)) }

    /// The exit status the first signal asks for, if any: 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP).
    var exitCode: ExitCode? { received.number.withLock { $0 }.map(Self.exitCode(for:)) }

    static func name(of number: Int32) -> String {
        signals.first { $0.number == number }?.name ?? "signal \(number)"
    }

    static func exitCode(for number: Int32) -> ExitCode {
        switch number {
        case SIGTERM: .terminated
        case SIGHUP: .hangUp
        default: .interrupted
        }
    }

    /// The pipeline has drained: the drain deadline no longer applies (a second signal still exits at once).
    func drainFinished() {
        received.drained.store(true, ordering: .releasing)
    }

    /// Restores the default handling (the run is over).
    func cancel() {
        drainFinished()
        for source in sources { source.cancel() }
        for (number, _) in Self.signals { signal(number, SIG_DFL) }
    }
}

/// The first signal received, shared with the signal handlers.
private final class FirstSignal: Sendable {
    let number = Mutex<Int32?>(nil)
    /// Whether the run is over (the drain deadline no longer applies).
    let drained = Atomic<Bool>(false)
}
