import Foundation
import GeofenceKit
import LocationRouter

/// `location-router merge REPORT…`: combines the JSON reports of a partitioned run into the whole run's.
struct MergeCommand {
    let console: Console
    private let files: [String]
    private var output: String? = "merged-report.json"
    private var thresholds: [Threshold] = []
    private var quiet = false
    private var allowMissing = false
    private var html: String?
    /// `--report PATH` given beside `--no-report`, which wins: said as the merge starts.
    private var overridden: [String] = []

    init(arguments: [String], console: Console) throws(CommandError) {
        self.console = console
        var arguments = Arguments(arguments)
        overridden = arguments.overriddenOutputs([("--no-report", "--report")])
        if let path = try arguments.option("--report") { output = path }
        if arguments.flag("--no-report") { output = nil }
        html = try arguments.option("--html")
        for text in try arguments.values("--threshold") {
            do {
                thresholds.append(try Threshold(parsing: text))
            } catch {
                throw .usage("The value '\(text)' is invalid for '--threshold <expr>': \(error.message)")
            }
        }
        quiet = arguments.flag("--quiet", "-q")
        allowMissing = arguments.flag("--allow-missing")
        files = try arguments.remaining()
        guard !files.isEmpty else { throw .usage("Missing expected argument '<report> ...'") }
    }

    func run() async throws(CommandError) -> ExitCode {
        for warning in overridden { console.err("warning: \(warning)\n") }
        var paths = OutputPaths()
        paths.add("--report", output)
        paths.add("--html", html)
        for file in files { paths.addInput("the report", file) }
        try paths.check()
        var reports: [(name: String, report: RunReport)] = []
        for file in files {
            let bytes = try Files.read(file)
            do {
                reports.append((file, try RunReport(json: bytes)))
            } catch {
                throw CommandError(.invalidInput, "\(error.in(file: file)) (expected a report written by --report)")
            }
        }
        var report: RunReport
        do {
            report = try ReportMerge.merge(reports, allowingMissing: allowMissing)
        } catch {
            throw CommandError(.invalidInput, error.message)
        }
        let results = thresholds.map { $0.evaluate(report) }
        if !results.isEmpty { report.thresholds = results }
        let toStandardError = output == "-"
        func say(_ text: String) { if toStandardError { console.err(text) } else { console.out(text) } }
        if !quiet {
            say(Self.header(report) + SummaryTable(report: report, eventsDestination: nil).text)
        } else if report.origin.merged?.missing.isEmpty == false {
            console.err(Self.header(report))
        }
        if let output { try Files.write(report.json, to: output, console: console) }
        if let html { try ReportHTML.write(reportJSON: report.json, to: html, console: console) }
        guard !results.isEmpty else { return .success }
        let met = results.allSatisfy(\.passed)
        if quiet {
            if !met { console.err(SummaryTable.thresholds(results, onlyFailed: true)) }
        } else {
            say(SummaryTable.thresholds(results, onlyFailed: false))
        }
        return met ? .success : .thresholdNotMet
    }

    /// `Merged 4 reports: partitions 0–3 of 4.` and, when some are missing, which.
    static func header(_ report: RunReport) -> String {
        guard let merged = report.origin.merged else { return "" }
        var text = "Merged \(merged.reports) report\(merged.reports == 1 ? "" : "s"): partitions "
        text += merged.partitions.map(String.init).joined(separator: ", ") + " of \(merged.partitionCount).\n"
        if !merged.missing.isEmpty {
            text += "MISSING partitions: " + merged.missing.map(String.init).joined(separator: ", ")
            text += " — the figures cover only the partitions above.\n"
        }
        return text
    }
}
