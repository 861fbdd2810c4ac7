import Foundation
import GeofenceKit
import LocationRouter

/// `location-router report REPORT.json --html PATH`: renders a saved JSON report as its HTML page.
struct ReportCommand {
    let console: Console
    let input: String
    let html: String

    init(arguments: [String], console: Console) throws(CommandError) {
        self.console = console
        var arguments = Arguments(arguments)
        guard let html = try arguments.option("--html") else {
            throw .usage("Missing expected option '--html <path>'")
        }
        self.html = html
        let files = try arguments.remaining()
        guard let input = files.first else { throw .usage("Missing expected argument '<report.json>'") }
        guard files.count == 1 else { throw .usage("Unexpected argument '\(files[1])'") }
        self.input = input
    }

    func run() async throws(CommandError) -> ExitCode {
        var paths = OutputPaths()
        paths.add("--html", html)
        paths.addInput("the report", input)
        try paths.check()
        let bytes = try Files.read(input)
        do {
            let page = try ReportPage.render(reportJSON: String(decoding: bytes, as: UTF8.self))
            try Files.write(page, to: html, console: console)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.invalidInput, "\(input): \(error)")
        }
        return .success
    }
}
