import Foundation

/// The `location-router` command: picks the subcommand, runs it, and turns errors into messages and exit codes.
enum CommandLineTool {
    /// The first argument that names a subcommand (any other runs `run` with every argument).
    static let subcommands = ["run", "check", "score", "serve", "report", "merge", "help"]

    static func run(_ arguments: [String], console: Console, workingDirectory: String) async -> ExitCode {
        var tokens = arguments
        let subcommand: String
        if let first = tokens.first, subcommands.contains(first) {
            subcommand = first
            tokens.removeFirst()
        } else {
            subcommand = "run"
        }
        do throws(CommandError) {
            if tokens.contains("--version") {
                console.out(HelpText.version)
                return .success
            }
            switch subcommand {
            case "help":
                // `help`, `help --help` and `help SUBCOMMAND`; a mistyped subcommand is an error, not the overview.
                if let topic = tokens.first, !topic.hasPrefix("-"), !subcommands.contains(topic) {
                    let names = subcommands.filter { $0 != "help" }
                    throw .usage(
                        "no subcommand '\(topic)': the subcommands are \(names.dropLast().joined(separator: ", ")) "
                            + "and \(names.last ?? "")")
                }
                console.out(tokens.first == "report" ? HelpText.report : HelpText.page(for: tokens.first))
                return .success
            case "score":
                if tokens.contains(where: { $0 == "-h" || $0 == "--help" }) {
                    console.out(HelpText.score)
                    return .success
                }
                return try await ScoreCommand(arguments: tokens, console: console).run()
            case "serve":
                if tokens.contains(where: { $0 == "-h" || $0 == "--help" }) {
                    console.out(HelpText.serve)
                    return .success
                }
                return try await ServeCommand(arguments: tokens, console: console).run()
            case "check":
                if tokens.contains(where: { $0 == "-h" || $0 == "--help" }) {
                    console.out(HelpText.check)
                    return .success
                }
                return try await CheckCommand(arguments: tokens, console: console).run()
            case "report":
                if tokens.contains(where: { $0 == "-h" || $0 == "--help" }) {
                    console.out(HelpText.report)
                    return .success
                }
                return try await ReportCommand(arguments: tokens, console: console).run()
            case "merge":
                if tokens.contains(where: { $0 == "-h" || $0 == "--help" }) {
                    console.out(HelpText.merge)
                    return .success
                }
                return try await MergeCommand(arguments: tokens, console: console).run()
            default:
                if tokens.contains(where: { $0 == "-h" || $0 == "--help" }) {
                    console.out(arguments.first == "run" ? HelpText.run : HelpText.overview + "\n" + HelpText.run)
                    return .success
                }
                return try await RunCommand(arguments: tokens, console: console, workingDirectory: workingDirectory)
                    .run()
            }
        } catch {
            console.err("Error: \(error.message)\n")
            if error.showsUsageHint {
                console.err("Usage: location-router \(subcommand == "report" ? "report <report.json> --html <path>" : HelpText.usage(of: subcommand))\n")
                console.err("  See 'location-router \(subcommand == "help" ? "" : subcommand + " ")--help' for more information.\n")
            }
            return error.code
        }
    }
}
