import Foundation
import GeofenceKit
import LocationRouter

/// `location-router check FILE…`: validates each file and says what it holds, or what is wrong and where.
struct CheckCommand {
    let console: Console
    let files: [String]
    let json: Bool

    init(arguments: [String], console: Console) throws(CommandError) {
        self.console = console
        var arguments = Arguments(arguments)
        json = arguments.flag("--json")
        files = try arguments.remaining()
        guard !files.isEmpty else { throw .usage("Missing expected argument '<file> ...'") }
    }

    func run() async throws(CommandError) -> ExitCode {
        var status = ExitCode.success
        for file in files {
            let result = FileCheck.check(path: file)
            console.out(json ? result.json + "\n" : result.humanText)
            if result.missing {
                status = .inputMissing
            } else if !result.valid && status == .success {
                status = .invalidInput
            }
        }
        return status
    }
}
