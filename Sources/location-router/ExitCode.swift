/// Exit statuses, as docs/interfaces.md promises them (BSD sysexits where one fits).
enum ExitCode: Int32 {
    case success = 0
    case usage = 64
    case invalidInput = 65
    case inputMissing = 66
    case outputFailed = 74
    case thresholdNotMet = 99
    /// Stopped by SIGHUP (128 + 1), SIGINT (128 + 2) or SIGTERM (128 + 15), after draining and writing the report.
    case hangUp = 129
    case interrupted = 130
    case terminated = 143
}

/// An error that ends the command with a message and an exit status.
struct CommandError: Error, CustomStringConvertible {
    var code: ExitCode
    var message: String
    /// Whether to print the usage hint after the message (usage errors).
    var showsUsageHint: Bool

    init(_ code: ExitCode, _ message: String, showsUsageHint: Bool = false) {
        self.code = code
        self.message = message
        self.showsUsageHint = showsUsageHint
    }

    static func usage(_ message: String) -> CommandError {
        CommandError(.usage, message, showsUsageHint: true)
    }

    var description: String { message }
}
