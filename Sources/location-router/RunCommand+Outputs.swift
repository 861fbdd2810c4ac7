import Foundation
import GeofenceKit
import LocationRouter

/// What a run checks before it starts and what it writes when it cannot finish: its outputs, the snapshot it
/// continues from, the memory its devices need, and the partial report of a run that cannot drain.
extension RunCommand {
    /// Every file the run writes, by option.
    var outputPaths: OutputPaths {
        var paths = OutputPaths()
        paths.add("--events", scenario.events)
        paths.add("--report", scenario.report)
        paths.add("--html", htmlPath)
        paths.add("--ground-truth", scenario.truth.groundTruthPath)
        paths.add("--state", scenario.statePath)
        if scenario.webhookURL != nil {
            paths.add("--dead-letter", scenario.webhook.deadLetter ?? WebhookConfiguration.defaultDeadLetterPath)
        }
        paths.addInput("--config", configPath)
        paths.addInput("--regions", scenario.regionsFile)
        switch scenario.source {
        case .gpx(let files):
            for file in files { paths.addInput("the GPX file", file) }
        case .stdin:
            // A file redirected to standard input (`< samples.ndjson`) is read too; a pipe or a terminal is no file.
            paths.addInput("standard input", "/dev/stdin")
        default:
            break
        }
        return paths
    }

    /// The snapshot to continue from, read and checked before any output is opened.
    func restoredSnapshot() throws(CommandError) -> StateSnapshot? {
        guard let path = scenario.statePath else { return nil }
        do {
            guard let snapshot = try StateFile.read(path) else { return nil }
            try Simulation.check(
                snapshot, profile: scenario.profile, seed: scenario.seed, partition: scenario.partition, path: path)
            return snapshot
        } catch {
            // Named by its option: the path alone (a directory, a config file) does not say what it was given as.
            let failure = Self.commandError(for: error)
            throw CommandError(failure.code, "--state " + failure.message)
        }
    }

    /// A report of what was counted so far, for a run that cannot drain: marked interrupted and incomplete.
    static func writePartialReport(scenario: Scenario, progress: PipelineProgress, signal: String, console: Console) {
        guard let path = scenario.report else { return }
        let json = "{\"updates\":\(progress.updates),\"eventsEmitted\":\(progress.events),"
            + "\"profile\":\(EventEncoder.jsonLiteral(scenario.profile)),\"seed\":\(scenario.seed),"
            + "\"version\":\(EventEncoder.jsonLiteral(LocationRouterVersion.current)),\"interrupted\":true,"
            + "\"stoppedBy\":\(EventEncoder.jsonLiteral(signal)),\"complete\":false}\n"
        try? Files.write(json, to: path, console: console)
    }

    /// Refuses, before anything is allocated, a run whose devices do not fit in the memory available (exit 64).
    static func checkMemory(devices: Int, regions: Int) throws(CommandError) {
        if let refusal = MemoryBudget.refusal(devices: devices, regions: regions) { throw CommandError(.usage, refusal) }
    }
}
