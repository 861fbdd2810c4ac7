import Foundation
import GeofenceFormats
import GeofenceKit
import LocationRouter

/// `location-router run`: builds the scenario, runs the pipeline, prints the summary and writes the report.
struct RunCommand {
    let console: Console
    private(set) var scenario = Scenario()
    /// `--html PATH`: the report's page.
    private(set) var htmlPath: String?
    /// Warnings for outputs that a flag given beside them turns off (`--report` and `--no-report`), said as the run
    /// starts.
    private(set) var overridden: [String] = []
    /// The configuration file the scenario was read from (`--config`, or `config.json` in the working directory):
    /// an input no output may replace.
    private(set) var configPath: String?

    init(arguments: [String], console: Console, workingDirectory: String) throws(CommandError) {
        self.console = console
        var arguments = Arguments(arguments)
        let givenConfig = try arguments.option("--config")
        let defaultConfig = (workingDirectory as NSString).appendingPathComponent("config.json")
        if let path = givenConfig ?? (FileManager.default.fileExists(atPath: defaultConfig) ? defaultConfig : nil) {
            configPath = path
            let bytes = try Files.read(path)
            do {
                try scenario.apply(configJSON: bytes)
            } catch {
                throw CommandError(.invalidInput, error.in(file: path).description)
            }
        }
        htmlPath = try arguments.option("--html")
        overridden = arguments.overriddenOutputs([("--no-report", "--report"), ("--no-events", "--events")])
        try scenario.apply(arguments: &arguments)
        let extra = try arguments.remaining()
        guard extra.isEmpty else { throw .usage("Unexpected argument '\(extra[0])'") }
    }

    func run() async throws(CommandError) -> ExitCode {
        for warning in overridden { console.err("warning: \(warning)\n") }
        // Inputs first (regions, GPX, the state snapshot), then the outputs are checked: nothing is created or
        // truncated until everything the run reads has validated.
        var configuration = try simulationConfiguration()
        try outputPaths.check()
        let truth = try prepareTruth(&configuration)
        defer { truth?.cleanUp() }
        if !scenario.compareProfiles.isEmpty { return try await runComparison(configuration, truth: truth) }
        let snapshot = try restoredSnapshot()
        var sinks: [any EventSink] = []
        var eventsPath: String?
        switch scenario.events {
        case nil: break
        case "-": sinks.append(FileDescriptorSink.standardOutput)
        case let path?:
            let recorded = OutputPaths.recordedEventsPath(path)
            // A restart from a snapshot that recorded this events file continues it: the file is cut where the
            // snapshot's events end (dropping a torn line or events past the snapshot), and appended to.
            let resume = snapshot?.events.flatMap { $0.path == recorded ? $0.bytes : nil }
            do { sinks.append(try FileDescriptorSink(path: path, resumingAt: resume)) } catch {
                throw CommandError(resume == nil ? .outputFailed : .invalidInput, "\(error)")
            }
            eventsPath = recorded
        }
        let webhook = try makeWebhook()
        if let webhook { sinks.append(webhook) }
        let output: (any EventSink)? = sinks.count > 1 ? FanOutSink(sinks) : sinks.first
        let scoring = truth.flatMap { _ in scoringSink(wrapping: output) }
        let sink: (any EventSink)? = scoring ?? output
        let progress = PipelineProgress()
        var simulation = Simulation(configuration: configuration, sink: sink, progress: progress)
        let stop = StopSignal()
        simulation.stop = stop
        let target = try startTarget(configuration, truth: truth, stop: stop)
        simulation.statePath = scenario.statePath
        simulation.snapshotInterval = scenario.snapshotInterval
        simulation.restoredSnapshot = snapshot
        simulation.eventsPath = eventsPath
        let console = console
        simulation.onSnapshotFailure = { error in console.err("warning: a state snapshot could not be saved: \(error)\n") }
        simulation.keepsWhatRemains = { KeptUntilExit.keep($0) }
        // The configuration holds the regions, which the exit reclaims too.
        defer { KeptUntilExit.keep(simulation) }
        let interrupts = console.handlesSignals
            ? InterruptHandler(stop: stop, console: console, drainDeadline: scenario.drainTimeout) { [scenario] signal in
                // A second signal, or a drain past its deadline: the report says how far the run got, then exit.
                Self.writePartialReport(scenario: scenario, progress: progress, signal: signal, console: console)
            }
            : nil
        defer { interrupts?.cancel() }
        let showsProgress = !scenario.quiet && console.errIsTerminal
        let progressLine = showsProgress ? ProgressLine(progress: progress, console: console) : nil
        var report: RunReport
        do {
            report = try await simulation.run()
            interrupts?.drainFinished()
            report.webhook = webhook?.statistics
            report.target = await target?.finish()
            if let scoring, let truth {
                report.score = await scoring.score(against: truth.events, tolerance: scenario.truth.tolerance)
            }
            // The fingerprint describes the whole scenario (about 6 ms): only a report or its page shows it.
            if writesReport { report.origin.configuration = scenario.fingerprint }
            await progressLine?.stop()
        } catch {
            interrupts?.drainFinished()
            await progressLine?.stop()
            throw Self.commandError(for: error)
        }
        report.stoppedBy = interrupts?.signalName

        let thresholds = scenario.thresholds.map { $0.evaluate(report) }
        if !thresholds.isEmpty { report.thresholds = thresholds }
        if !scenario.quiet {
            var table = SummaryTable(report: report, eventsDestination: scenario.events).text
            if let score = report.score { table += score.text }
            if let target = report.target { table += Self.targetSummary(target) }
            if humanOutputOnStandardError { console.err(table) } else { console.out(table) }
        }
        if let path = scenario.report { try Files.write(report.json, to: path, console: console) }
        if let htmlPath { try ReportHTML.write(reportJSON: report.json, to: htmlPath, console: console) }
        if let message = Self.outputFailure(of: report) { throw CommandError(.outputFailed, message) }
        let status = finish(thresholds, humanOutputOnStandardError: humanOutputOnStandardError)
        if let code = interrupts?.exitCode { return code }
        return report.interrupted ? .interrupted : status
    }

    /// What a run whose output failed says (`nil`: it did not fail): the failure and what it cost — events the sink
    /// did not write (`dropped`), and a webhook's events that its dead-letter file did not take either (`lost`).
    static func outputFailure(of report: RunReport) -> String? {
        guard let failure = report.sinkFailure else { return nil }
        var parts = [failure]
        if report.dropped > 0 || report.webhook == nil {
            parts.append("\(report.dropped) events were not written (the report counts them as dropped)")
        }
        if let lost = report.webhook?.lost, lost > 0 {
            parts.append("\(lost) events were neither delivered nor dead-lettered (the report's webhook.lost)")
        }
        return parts.joined(separator: "; ")
    }

    /// Whether the run writes its report or the report's page (`--report`, `--html`); without either, what only
    /// they show is not computed.
    var writesReport: Bool { scenario.report != nil || htmlPath != nil }

    /// Whether the summary goes to standard error: when events, the report or the page go to standard output.
    var humanOutputOnStandardError: Bool { scenario.events == "-" || scenario.report == "-" || htmlPath == "-" }

    /// Prints how the run fared against its thresholds (with `--quiet`, only the failed ones, on standard error)
    /// and returns the exit status: 99 when any threshold was not met.
    func finish(_ thresholds: [ThresholdResult], humanOutputOnStandardError: Bool) -> ExitCode {
        guard !thresholds.isEmpty else { return .success }
        let met = thresholds.allSatisfy(\.passed)
        if scenario.quiet {
            if !met { console.err(SummaryTable.thresholds(thresholds, onlyFailed: true)) }
        } else {
            let text = SummaryTable.thresholds(thresholds, onlyFailed: false)
            if humanOutputOnStandardError { console.err(text) } else { console.out(text) }
        }
        return met ? .success : .thresholdNotMet
    }
}
