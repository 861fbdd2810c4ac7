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

    static let standard = Console(
        out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
        err: { text in FileHandle.standardError.write(Data(text.utf8)) },
        errIsTerminal: isatty(STDERR_FILENO) == 1, handlesSignals: true)
}
