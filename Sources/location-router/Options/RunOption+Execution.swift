import Foundation
import GeofenceFormats
import GeofenceKit
import LocationRouter

/// The options of how a run executes and is judged: seed, pace, shards, bad input, thresholds, truth, target,
/// output verbosity and partitions.
extension RunOption {
    static let execution: [RunOption] = [
        .value("--seed", "<n>", key: "seed", .seed, help: ["Seed of the random walk (same seed, same events)."]) {
            $0.seed = $1
        },
        .value("--pace", "<pace>", key: "pace", .pace, help: [
            "max | realtime | a factor of simulated seconds per second.",
        ]) { $0.pace = $1 },
        // README: 0 (config.json's default) is one shard per active core, from the command line too.
        .value(
            "--shards", "<n>", key: "pipeline.shards", .integer(0...1024, message: "must be 0 (one per core) to 1024"),
            help: ["Monitor shards (default: one per active core)."]
        ) { $0.shards = $1 == 0 ? nil : $1 },
        .value(nil, nil, key: "pipeline.batchSize", .integer(1...1_000_000), help: []) { $0.batchSize = $1 },
        .value(nil, nil, key: "pipeline.credits", .integer(1...1024), help: []) { $0.credits = $1 },
        .value(
            "--on-bad-input", "<p>", key: "onBadInput",
            .text("skip, fail", message: "must be \"skip\" or \"fail\"") { $0 == "skip" || $0 == "fail" ? $0 : nil },
            help: ["skip (count and report bad lines; default) | fail (exit 65)."]
        ) { $0.failOnBadInput = $1 == "fail" },
        .list("--threshold", "<expr>", key: "thresholds", .threshold, help: [
            "Pass/fail condition on the report, METRIC OP NUMBER (repeatable; replaces",
            "the config's thresholds), e.g. 'latencyMs.p99 < 5', 'dropped == 0'.",
        ]) { $0.thresholds = $1 },
        .value("--ground-truth", "<path|->", key: nil, .anyText, help: [
            "Write the exact truth of the input as NDJSON events: every boundary",
            "crossing at its interpolated time, pass-throughs between two samples",
            "included.",
        ]) { $0.truth.groundTruthPath = $1 },
        .flag("--score", key: nil, help: [
            "Score the run's events against that truth (recall, precision, missed,",
            "spurious, latency): the report's 'score' object, thresholds 'score.*'.",
        ]) { scenario, _ in scenario.truth.score = true },
        .value(
            "--score-tolerance", "<s>", key: nil, .within(0...31_622_400, message: "must be 0...31622400 seconds"),
            errorName: "<seconds>", help: ["How late an event may be and still match its truth event (default 600)."]
        ) { $0.truth.tolerance = $1 },
        .value(
            "--target", "<url>", key: nil,
            .text("an http:// URL", message: "must be an http:// URL") { url in
                guard let parsed = URL(string: url), parsed.scheme == "http", parsed.host != nil else { return nil }
                return url
            },
            help: [
                "Drive a geofence service under test: POST the samples to <url> as NDJSON",
                "batches (in order per device, paced by --pace) and score the events it",
                "posts back to --listen: the report's 'target' object.",
            ]
        ) { $0.truth.target = $1 },
        .value(
            "--listen", "<host:port>", key: nil,
            .text("such as 127.0.0.1:9090", message: "must be HOST:PORT") { ListenAddress($0) == nil ? nil : $0 },
            help: ["Where the service posts its events: POST /events, NDJSON or a JSON array."]
        ) { $0.truth.listen = $1 },
        .value("--target-batch", "<n>", key: nil, .integer(1...1_000_000), help: [
            "Samples per request (default 500; also sent every 100 ms).",
        ]) { $0.truth.targetBatch = $1 },
        .value("--listen-grace", "<s>", key: nil, .within(0...86_400, message: "must be 0...86400 seconds"), errorName: "<seconds>", help: [
            "Seconds to wait for late events after the input ends (default 10).",
        ]) { $0.truth.listenGrace = $1 },
        .flag("--quiet", aliases: ["-q"], key: "quiet", help: [
            "Print neither progress nor the summary (failed thresholds still are).",
        ]) { $0.quiet = $1 },
        .value(
            "--partition", "<I/N>", key: "partition",
            .text(Scenario.partitionRule, message: Scenario.partitionRule) { Partition(parsing: $0) },
            help: [
                "Simulate only partition I of N (0 ≤ I < N ≤ 65536), for running one test",
                "as N processes: generated device d is partition d mod N's; a stream's",
                "device is partition FNV-1a-64(UTF-8 id) mod N's. Same config and seed",
                "everywhere; combine the reports with 'location-router merge'.",
            ]
        ) { $0.partition = $1 },
    ]
}

extension OptionRule where Value == UInt64 {
    /// A whole number from 0 to 2⁶⁴ − 1 (a JSON number in config.json).
    static var seed: OptionRule {
        let message = "must be a whole number from 0 to \(UInt64.max)"
        return OptionRule(
            expected: "a whole number ≥ 0",
            parse: { text in UInt64(text).map { .success($0) } ?? .failure(OptionRejection(message: message)) },
            read: { (object, key) throws(InputError) -> UInt64? in
                guard let seed = object.value(key), !seed.isNull else { return nil }
                guard let value = seed.unsignedInteger else { throw object.error(message, key: key) }
                return value
            })
    }
}

extension OptionRule where Value == Pace {
    /// `max`, `realtime` or a factor > 0 (in config.json a string, or the factor as a number).
    static var pace: OptionRule {
        let message = "must be \"max\", \"realtime\" or a number > 0"
        return OptionRule(
            expected: "max, realtime, or a factor > 0",
            parse: { text in Scenario.pace(from: text).map { .success($0) } ?? .failure(OptionRejection(message: message)) },
            read: { (object, key) throws(InputError) -> Pace? in
                guard let pace = object.value(key), !pace.isNull else { return nil }
                let text = pace.numberText ?? (try? pace.string(path: key)) ?? ""
                guard let value = Scenario.pace(from: text) else { throw object.error(message, key: key) }
                return value
            })
    }
}

extension OptionRule where Value == Threshold {
    /// `METRIC OP NUMBER`; the parser's own words say what is wrong.
    static var threshold: OptionRule {
        OptionRule(expected: "METRIC OP NUMBER", parse: { text in
            do throws(ThresholdError) {
                return .success(try Threshold(parsing: text))
            } catch {
                return .failure(OptionRejection(message: error.message, detailsOnCommandLine: true))
            }
        })
    }
}
