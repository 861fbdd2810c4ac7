import Foundation

/// Where the command writes: standard output for results (and events with `--events -`), standard error for
/// humans. Injected so that tests run the whole command in-process.
struct Console: Sendable {
    var out: @Sendable (String) -> Void
    var err: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress lines are drawn only there).
    var errIsTerminal: Bool
    /// Whether the command owns the process's signals (Ctrl-C drains the run); not when run inside tests.
    var handlesSignals = false

    /// The process's standard output and error. A write that fails (a reader that closed its end of the pipe:
    /// `EPIPE`, with SIGPIPE ignored by `main`) loses only that text: the run goes on and writes its files.
    static let standard = Console(
        out: { text in try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) },
        err: { text in try? FileHandle.standardError.write(contentsOf: Data(text.utf8)) },
        errIsTerminal: isatty(STDERR_FILENO) == 1, handlesSignals: true)
}
