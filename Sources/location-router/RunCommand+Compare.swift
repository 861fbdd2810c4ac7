import Foundation
import GeofenceKit
import LocationRouter

/// `run --compare-profiles exact,ios,android`: the same input through several profiles, compared with `exact`.
extension RunCommand {
    func runComparison(_ configuration: SimulationConfiguration, truth: TruthPlan?) async throws(CommandError) -> ExitCode {
        let profiles = [MonitoringProfile.exact] + scenario.compareProfiles.filter { $0 != .exact }
        // A stream can be read once: keep it in a temporary file and replay it for every profile.
        var replay: String?
        if let copied = truth?.replayPath {
            replay = copied
        } else if case .samples = configuration.source {
            replay = try Self.copyStandardInput()
        }
        defer { if let replay, truth?.replayPath == nil { try? FileManager.default.removeItem(atPath: replay) } }
        var scores: [(profile: String, score: EventScore)] = []

        var runs: [(profile: MonitoringProfile, report: RunReport, events: [GeofenceEvent])] = []
        for profile in profiles {
            var run = configuration
            run.settings = scenario.settings(for: profile)
            run.profile = profile.rawValue
            var descriptor: Int32 = -1
            if let replay, case .samples(var input) = run.source {
                descriptor = open(replay, O_RDONLY)
                input.descriptor = descriptor
                input.onRejection = profile == .exact ? input.onRejection : nil
                run.source = .samples(input)
            }
            defer { if descriptor >= 0 { close(descriptor) } }
            do {
                let scoring = truth.flatMap { _ in scoringSink(wrapping: nil) }
                var (report, events) = try await Simulation(configuration: run, sink: scoring).runKeepingEvents()
                if let scoring, let truth {
                    report.score = await scoring.score(against: truth.events, tolerance: scenario.truth.tolerance)
                    scores.append((profile.rawValue, report.score!))
                }
                runs.append((profile, report, events))
            } catch {
                throw Self.commandError(for: error)
            }
        }
        // Thresholds test the run's report, whose top level is the baseline's (exact).
        let thresholds = scenario.thresholds.map { $0.evaluate(runs[0].report) }
        if !thresholds.isEmpty { runs[0].report.thresholds = thresholds }
        let comparisons = ProfileComparison.compare(
            baseline: runs[0].events, profiles: runs.dropFirst().map { ($0.profile.rawValue, $0.events) })
        if !scenario.quiet {
            console.out(SummaryTable(report: runs[0].report, eventsDestination: nil).text + "\n")
            console.out(ProfileComparison.table(comparisons))
            if !scores.isEmpty { console.out(Self.scoreTable(scores)) }
        }
        if scenario.report != nil || htmlPath != nil {
            // The baseline's report, with the comparison and each profile's own report (without the page's data:
            // the page draws the baseline's) as members of its own.
            let perProfile = runs.map { run in
                var report = run.report
                report.recording = nil
                return (key: run.profile.rawValue, json: RunReport.jsonObject(report.jsonMembers).trimmingCharacters(in: .newlines))
            }
            let json = RunReport.jsonObject(
                runs[0].report.jsonMembers + [
                    (key: "comparison", json: ProfileComparison.json(comparisons).trimmingCharacters(in: .newlines)),
                    (key: "profiles", json: RunReport.jsonObject(perProfile).trimmingCharacters(in: .newlines)),
                ])
            if let path = scenario.report { try Files.write(json, to: path, console: console) }
            if let htmlPath { try ReportHTML.write(reportJSON: json, to: htmlPath, console: console) }
        }
        return finish(thresholds, humanOutputOnStandardError: false)
    }

    /// Standard input, copied whole into a temporary file.
    static func copyStandardInput() throws(CommandError) -> String {
        let path = NSTemporaryDirectory() + "location-router-compare-\(UUID().uuidString).input"
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let output = FileHandle(forWritingAtPath: path)
        else {
            throw CommandError(.outputFailed, "\(path): cannot be created to replay standard input")
        }
        defer { try? output.close() }
        do {
            while let data = try FileHandle.standardInput.read(upToCount: 1 << 20), !data.isEmpty {
                try output.write(contentsOf: data)
            }
        } catch {
            throw CommandError(.inputMissing, "stdin: cannot be read (\(error.localizedDescription))")
        }
        return path
    }
}
