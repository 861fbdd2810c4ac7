import Foundation

/// A committed baseline: the configuration it was measured with and each benchmark's p50 and p90 per metric.
struct Baseline {
    struct Entry {
        var name: String
        var runs: Int
        /// p50 by metric name.
        var p50: [String: Double]
        /// p90 by metric name: with p50, the spread of the baseline's own runs.
        var p90: [String: Double] = [:]
    }

    var configuration: SuiteConfiguration
    /// The cores of the machine that measured the baseline (the pipeline runs one shard per core).
    var cores: Int?
    var entries: [Entry]

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads the output of `location-router-bench --json`.
    static func load(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "\(path): cannot read the file")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw LoadError(description: "\(path): not JSON (\(error.localizedDescription))")
        }
        guard let object = root as? [String: Any], let benchmarks = object["benchmarks"] as? [Any] else {
            throw LoadError(description: "\(path): expected an object with \"benchmarks\", as --json writes it")
        }
        var configuration = SuiteConfiguration()
        var cores: Int?
        if let settings = object["configuration"] as? [String: Any] {
            func integer(_ key: String) -> Int? { number(settings[key]).map { Int($0) } }
            configuration.devices = integer("devices") ?? configuration.devices
            configuration.regions = integer("regions") ?? configuration.regions
            configuration.seconds = integer("seconds") ?? configuration.seconds
            configuration.updates = integer("updates") ?? configuration.updates
            configuration.runs = integer("runs") ?? configuration.runs
            cores = integer("cores")
        }
        var entries: [Entry] = []
        for (index, item) in benchmarks.enumerated() {
            guard let benchmark = item as? [String: Any], let name = benchmark["name"] as? String else {
                throw LoadError(description: "\(path): benchmarks[\(index)]: expected an object with a \"name\"")
            }
            var p50: [String: Double] = [:]
            var p90: [String: Double] = [:]
            for (key, value) in benchmark {
                guard let metric = value as? [String: Any] else { continue }
                if let median = number(metric["p50"]) { p50[key] = median }
                if let high = number(metric["p90"]) { p90[key] = high }
            }
            let runs = number(benchmark["runs"]).map { Int($0) } ?? configuration.runs
            entries.append(Entry(name: name, runs: runs, p50: p50, p90: p90))
        }
        return Baseline(configuration: configuration, cores: cores, entries: entries)
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Double: value
        case let value as Int: Double(value)
        case let value as NSNumber: value.doubleValue
        default: nil
        }
    }
}

/// `--check BASELINE.json`: runs the baseline's benchmarks and compares each judged metric's p50 with it.
enum Check {
    struct Comparison {
        var benchmark: String
        var metric: Metric
        var unit: String
        var baseline: Double
        var current: Double?
        var tolerance: Double

        /// The worst value that still passes: the tolerance, widened to the metric's noise floor.
        var limit: Double {
            metric.direction == .higherIsBetter
                ? min(baseline * (1 - tolerance), baseline - metric.noiseFloor)
                : max(baseline * (1 + tolerance), baseline + metric.noiseFloor)
        }

        var isRegression: Bool {
            guard let current else { return true }
            switch metric.direction {
            case .higherIsBetter: return current < limit
            case .lowerIsBetter: return current > limit
            case .informational: return false
            }
        }

        var change: String {
            guard let current, baseline != 0 else { return "–" }
            return String(format: "%+.1f%%", (current / baseline - 1) * 100)
        }

        var explanation: String {
            let label = metric.label(for: unit)
            guard let current else { return "\(benchmark): \(metric.name) was not reported" }
            let relation = metric.direction == .higherIsBetter ? "below" : "above"
            let sign = metric.direction == .higherIsBetter ? "−" : "+"
            let floor = metric.noiseFloor > 0 ? ", at least \(metric.format(metric.noiseFloor))" : ""
            return
                "\(benchmark): \(label) p50 \(metric.format(current)) is \(relation) the limit \(metric.format(limit)) "
                + "(baseline \(metric.format(baseline)) \(sign) \(Int((tolerance * 100).rounded())) %\(floor))"
        }
    }

    /// The judged metrics of `result` against the baseline's p50s.
    ///
    /// A CPU-bound benchmark's throughput is judged relative to the machine's speed measured around each run
    /// (`throughputRelative`, see ``Calibration``), not as it is; a metric whose baseline runs spread widely gets
    /// a tolerance of three times that spread (up to 60 %) when that is wider than `tolerance`.
    static func compare(
        _ entry: Baseline.Entry, _ benchmark: Benchmark, _ result: BenchmarkResult, tolerance: Double
    ) -> [Comparison] {
        let relative = entry.p50["throughputRelative"] != nil
        return entry.p50.keys.sorted { order($0) < order($1) }.compactMap { name in
            guard let metric = Metric.named(name), metric.direction != .informational,
                !benchmark.unjudged.contains(name), let baseline = entry.p50[name],
                !(relative && name == "throughput")
            else { return nil }
            let spread = entry.p90[name].map { baseline > 0 ? abs($0 - baseline) / baseline : 0 } ?? 0
            return Comparison(
                benchmark: entry.name, metric: metric, unit: result.unit, baseline: baseline,
                current: result.percentiles(name)?.p50, tolerance: max(tolerance, min(0.6, 3 * spread)))
        }
    }

    private static func order(_ name: String) -> Int { Metric.all.firstIndex { $0.name == name } ?? Int.max }

    /// The better p50 of two measurements, metric by metric, for a benchmark measured again.
    static func best(_ first: [Comparison], _ second: [Comparison]) -> [Comparison] {
        zip(first, second).map { a, b in
            guard let x = a.current, let y = b.current else { return a.current == nil ? b : a }
            var better = a
            better.current = a.metric.direction == .higherIsBetter ? max(x, y) : min(x, y)
            return better
        }
    }

    /// Measurements of a benchmark that looks regressed before the regression counts.
    static let attempts = 3

    /// The 1-minute load average (Linux), to tell a busy machine from a slow build.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.map(String.init) ?? "unknown"
    }

    static func run(path: String, tolerance: Double, runs: Int?, filter: String?) async -> Int32 {
        let baseline: Baseline
        do {
            baseline = try Baseline.load(path: path)
        } catch {
            stderr("Error: \(error)")
            return 66
        }
        let entries = baseline.entries.filter { filter.map($0.name.contains) ?? true }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if let measured = baseline.cores, measured != cores {
            stderr("warning: the baseline was measured on \(measured) cores, this machine has \(cores)")
        }
        stderr(
            "checking \(entries.count) benchmarks against \(path) (tolerance \(Int((tolerance * 100).rounded())) %)")
        var comparisons: [Comparison] = []
        var failures: [String] = []
        for entry in entries {
            guard let benchmark = Workloads.named(entry.name, baseline.configuration) else {
                failures.append("\(entry.name): no such benchmark")
                continue
            }
            let count = runs ?? entry.runs
            do {
                stderr("running \(benchmark.name): \(benchmark.summary)")
                var found = compare(entry, benchmark, try await measure(benchmark, runs: count), tolerance: tolerance)
                // A shared machine has bursts (someone's build takes a core for a few seconds): a regression must
                // persist over `attempts` measurements, a little apart, to count; each metric keeps its best p50.
                var attempt = 1
                while found.contains(where: \.isRegression) && attempt < attempts {
                    attempt += 1
                    stderr(
                        "  \(benchmark.name) looks worse than the baseline (load average \(loadAverage())): "
                            + "measuring it again (\(attempt) of \(attempts))")
                    try await Task.sleep(nanoseconds: 2_000_000_000)
                    let again = try await measure(benchmark, runs: count)
                    found = best(found, compare(entry, benchmark, again, tolerance: tolerance))
                }
                comparisons += found
            } catch {
                failures.append("\(entry.name): \(error)")
            }
        }
        print(table(comparisons), terminator: "")
        let regressions = comparisons.filter(\.isRegression).map(\.explanation) + failures
        if regressions.isEmpty {
            print("no regressions: \(comparisons.count) metrics of \(entries.count) benchmarks within tolerance")
            return 0
        }
        print(
            "\(regressions.count) regression\(regressions.count == 1 ? "" : "s") (each persisted over \(attempts) "
                + "measurements; load average now \(loadAverage())):")
        for line in regressions { print("  " + line) }
        return 1
    }

    static func table(_ comparisons: [Comparison]) -> String {
        let nameWidth = max(10, comparisons.map(\.benchmark.count).max() ?? 0) + 2
        func cell(_ text: String, _ width: Int = 13) -> String {
            String(repeating: " ", count: max(1, width - text.count)) + text
        }
        var text =
            "benchmark".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            + "metric (p50)".padding(toLength: 42, withPad: " ", startingAt: 0)
            + cell("baseline") + cell("current") + cell("change", 9) + cell("limit", 15) + "\n"
        var previous = ""
        for comparison in comparisons {
            let metric = comparison.metric
            text += (comparison.benchmark == previous ? "" : comparison.benchmark)
                .padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            previous = comparison.benchmark
            text += metric.label(for: comparison.unit).padding(toLength: 42, withPad: " ", startingAt: 0)
            text += cell(metric.format(comparison.baseline)) + cell(comparison.current.map(metric.format) ?? "–")
            text += cell(comparison.change, 9)
            text += cell((metric.direction == .higherIsBetter ? "≥ " : "≤ ") + metric.format(comparison.limit), 15)
            text += comparison.isRegression ? "  REGRESSION\n" : "  ok\n"
        }
        return text
    }

    static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
