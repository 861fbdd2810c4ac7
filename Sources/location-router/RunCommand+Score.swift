import Foundation
import GeofenceKit
import LocationRouter

/// The truth of a run's input, prepared before the run: what `--score` and `--target` measure events against.
struct TruthPlan {
    /// The crossings, as the scorer takes them.
    var events: [ScoredEvent]
    /// The whole truth (for the target driver, which needs the crossings' causes).
    var truth: GroundTruth
    /// Standard input, copied so that the run and the truth both read it (removed by ``cleanUp()``).
    var replayPath: String?
    /// The descriptor the run reads the replay from.
    var replayDescriptor: Int32 = -1

    func cleanUp() {
        if replayDescriptor >= 0 { close(replayDescriptor) }
        if let replayPath { try? FileManager.default.removeItem(atPath: replayPath) }
    }
}

extension RunCommand {
    /// When the run needs the truth of its input (`--ground-truth`, `--score`, `--target`): copies a stream into a
    /// replay file and points the run at it, computes the truth, and writes the `--ground-truth` file.
    func prepareTruth(_ configuration: inout SimulationConfiguration) throws(CommandError) -> TruthPlan? {
        let options = scenario.truth
        guard options.needsTruth else { return nil }
        var truthConfiguration = configuration
        var replayPath: String?
        var replayDescriptor: Int32 = -1
        var truthDescriptor: Int32 = -1
        defer { if truthDescriptor >= 0 { close(truthDescriptor) } }
        if case .samples(var input) = configuration.source {
            let path = try Self.copyStandardInput()
            replayPath = path
            replayDescriptor = open(path, O_RDONLY | O_CLOEXEC)
            truthDescriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard replayDescriptor >= 0, truthDescriptor >= 0 else {
                if replayDescriptor >= 0 { close(replayDescriptor) }
                try? FileManager.default.removeItem(atPath: path)
                throw CommandError(.outputFailed, "\(path): cannot be read back to replay standard input")
            }
            input.descriptor = replayDescriptor
            configuration.source = .samples(input)
            input.descriptor = truthDescriptor
            input.onRejection = nil
            truthConfiguration.source = .samples(input)
        }
        let plan: TruthPlan
        do {
            let truth = try GroundTruth.compute(truthConfiguration)
            plan = TruthPlan(events: truth.scoredEvents, truth: truth, replayPath: replayPath, replayDescriptor: replayDescriptor)
        } catch {
            if replayDescriptor >= 0 { close(replayDescriptor) }
            if let replayPath { try? FileManager.default.removeItem(atPath: replayPath) }
            throw Self.commandError(for: error)
        }
        if let path = options.groundTruthPath {
            do {
                if path == "-" {
                    console.out(String(decoding: plan.truth.ndjson, as: UTF8.self))
                } else {
                    try OutputFile.write(plan.truth.ndjson, to: path)
                }
            } catch {
                plan.cleanUp()
                throw CommandError(.outputFailed, error.description)
            }
        }
        return plan
    }

    /// The sink that keeps the run's events for `--score`, wrapping `sink`; `nil` when the run is not scored.
    func scoringSink(wrapping sink: (any EventSink)?) -> ScoringSink? {
        scenario.truth.score ? ScoringSink(forwardingTo: sink) : nil
    }

    /// A table of each profile's score, for `--compare-profiles --score`.
    static func scoreTable(_ scores: [(profile: String, score: EventScore)]) -> String {
        var rows = [["profile", "truth", "events", "recall", "precision", "missed", "spurious", "p50 s", "p90 s", "p99 s", "max s"]]
        for (profile, score) in scores {
            let t = score.total
            let latency = [score.latency.p50, score.latency.p90, score.latency.p99, score.latency.max]
            rows.append([profile, String(t.truth), String(t.events), String(format: "%.4f", t.recall), String(format: "%.4f", t.precision),
                         String(t.missed), String(t.spurious)] + latency.map { $0.map { String(format: "%.3f", $0) } ?? "–" })
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = "Profiles vs the truth (event at or after its truth crossing, within \(scores.first.map { String(format: "%g", $0.score.tolerance) } ?? "") s):\n"
        for row in rows {
            text += row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ") + "\n"
        }
        return text
    }
}
