import Foundation
import LocationRouter

/// The options of `run` that measure events against the truth: `--ground-truth`, `--score`, `--score-tolerance`,
/// and the options that drive a geofence service under test (`--target`, `--listen`, …).
struct TruthOptions: Equatable {
    /// `--ground-truth PATH`: where the continuous-time truth of the input is written (NDJSON events).
    var groundTruthPath: String?
    /// `--score`: score the run's own events against the truth.
    var score = false
    /// `--score-tolerance SECONDS`: how late an event may be and still match (default 600).
    var tolerance = 600.0
    /// `--target URL`: the geofence service under test; `--listen HOST:PORT`: where its events arrive.
    var target: String?
    var listen: String?
    var targetBatch = 500
    var listenGrace = 10.0

    /// Whether the run needs the truth of its input.
    var needsTruth: Bool { groundTruthPath != nil || score || target != nil }
}

extension Scenario {
    /// Takes the truth and target options from the command line.
    mutating func applyTruthOptions(_ arguments: inout Arguments) throws(CommandError) {
        if let path = try arguments.option("--ground-truth") { truth.groundTruthPath = path }
        if arguments.flag("--score") { truth.score = true }
        if let text = try arguments.option("--score-tolerance") {
            guard let seconds = Double(text), seconds.isFinite, (0...31_622_400).contains(seconds) else {
                throw .usage("The value '\(text)' is invalid for '--score-tolerance <seconds>' (0...31622400)")
            }
            truth.tolerance = seconds
        }
        if let url = try arguments.option("--target") {
            guard let parsed = URL(string: url), parsed.scheme == "http", parsed.host != nil else {
                throw .usage("The value '\(url)' is invalid for '--target <url>' (an http:// URL)")
            }
            truth.target = url
        }
        if let address = try arguments.option("--listen") {
            guard ListenAddress(address) != nil else {
                throw .usage("The value '\(address)' is invalid for '--listen <host:port>' (such as 127.0.0.1:9090)")
            }
            truth.listen = address
        }
        if let text = try arguments.option("--target-batch") {
            guard let count = Int(text), (1...1_000_000).contains(count) else {
                throw .usage("The value '\(text)' is invalid for '--target-batch <n>' (1...1000000)")
            }
            truth.targetBatch = count
        }
        if let text = try arguments.option("--listen-grace") {
            guard let seconds = Double(text), seconds.isFinite, (0...86_400).contains(seconds) else {
                throw .usage("The value '\(text)' is invalid for '--listen-grace <seconds>' (0...86400)")
            }
            truth.listenGrace = seconds
        }
        if truth.target != nil && !compareProfiles.isEmpty {
            throw .usage("'--target' cannot be combined with '--compare-profiles': drive the service with one profile's run")
        }
        if (truth.target == nil) != (truth.listen == nil) {
            throw .usage(truth.target == nil ? "'--listen' needs '--target <url>'" : "'--target' needs '--listen <host:port>'")
        }
    }
}
