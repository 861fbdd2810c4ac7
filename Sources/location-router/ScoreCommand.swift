import Foundation
import GeofenceKit
import LocationRouter

/// `location-router score --truth TRUTH --events EVENTS`: how right a set of events is against the truth.
struct ScoreCommand {
    let console: Console
    let truthPath: String
    let eventsPath: String
    let tolerance: Double
    let json: Bool
    let thresholds: [Threshold]

    init(arguments: [String], console: Console) throws(CommandError) {
        self.console = console
        var arguments = Arguments(arguments)
        guard let truth = try arguments.option("--truth") else { throw .usage("Missing expected option '--truth <path>'") }
        guard let events = try arguments.option("--events") else { throw .usage("Missing expected option '--events <path>'") }
        guard truth != "-" || events != "-" else { throw .usage("Only one of '--truth' and '--events' can be '-' (standard input)") }
        truthPath = truth
        eventsPath = events
        if let text = try arguments.option("--tolerance") {
            guard let seconds = Double(decimal: text), seconds.isFinite, (0...31_622_400).contains(seconds) else {
                throw .usage("The value '\(text)' is invalid for '--tolerance <seconds>' (0...31622400)")
            }
            tolerance = seconds
        } else {
            tolerance = 600
        }
        json = arguments.flag("--json")
        var thresholds: [Threshold] = []
        for text in try arguments.values("--threshold") {
            // `score.recall` (as in a run report) and `recall` name the same metric.
            let trimmed = text.drop { $0.isWhitespace }
            let expression = trimmed.hasPrefix("score.") ? String(trimmed.dropFirst("score.".count)) : text
            do {
                thresholds.append(try Threshold(parsing: expression, known: EventScore.metricPaths, knownSummary: Self.metricSummary))
            } catch {
                throw .usage("The value '\(text)' is invalid for '--threshold <expr>': \(error.message)")
            }
        }
        self.thresholds = thresholds
        let extra = try arguments.remaining()
        guard extra.isEmpty else { throw .usage("Unexpected argument '\(extra[0])'") }
    }

    static let metricSummary =
        "truth, events, matched, recall, precision, missed, spurious, duplicates, ignored, "
        + "latencySeconds.p50|p90|p95|p99|max|mean, byKind.enter.<count>, byKind.exit.<count>"

    func run() async throws(CommandError) -> ExitCode {
        let truth = try Self.events(in: truthPath)
        let events = try Self.events(in: eventsPath)
        let score = EventMatcher(tolerance: tolerance).score(truth: truth.events, events: events.events, ignored: events.ignored)
        let results = thresholds.map { $0.evaluate(value: score.value(at: $0.metric.path)) }
        if json {
            var text = score.json
            if !results.isEmpty {
                text.removeLast()
                text += ",\"thresholds\":[" + results.map(\.json).joined(separator: ",") + "]}"
            }
            console.out(text + "\n")
        } else {
            console.out(score.text)
        }
        guard !results.isEmpty else { return .success }
        let table = SummaryTable.thresholds(results, onlyFailed: false)
        if json { console.err(table) } else { console.out(table) }
        return results.allSatisfy(\.passed) ? .success : .thresholdNotMet
    }

    /// The events of a file (or of standard input for `-`). - Throws: exit 66 (missing), 65 (invalid).
    private static func events(in path: String) throws(CommandError) -> EventFileReader.Contents {
        let bytes: [UInt8]
        if path == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            bytes = try Files.read(path)
        }
        do {
            return try EventFileReader.read(bytes)
        } catch {
            throw CommandError(.invalidInput, error.in(file: path == "-" ? "stdin" : path).description)
        }
    }
}
