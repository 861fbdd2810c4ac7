import Foundation

/// `--check BASELINE.json`: runs the baseline's benchmarks and compares each judged metric's p50 with it.
enum Check {
    struct Comparison {
        var benchmark: String
        var metric: Metric
        var unit: String
        var baseline: Double
        var current: Double?
        var tolerance: Double
        /// Whether the metric is a wall-clock throughput, which depends on the cores the run got.
        var isWallClock = false
        /// Cores the machine's other processes kept busy during the measurement (p50 of its runs).
        var othersCPU: Double?
        /// How fast this machine runs the whole suite against the baseline's (``MachineFactor``), at most 1: a
        /// speed metric's limit is scaled by it. 1 for the other metrics, and until the suite has been measured.
        var machineFactor = 1.0

        /// Whether the metric is a speed relative to the calibration, which the machine factor scales.
        var isSpeed: Bool { MachineFactor.judges(metric.name) }

        /// A wall-clock throughput measured while other processes kept more than ``busyCores`` busy is reported,
        /// not judged: the run did not have the machine's cores to itself, whatever the calibration saw.
        var isExcused: Bool { isWallClock && (othersCPU ?? 0) > Check.busyCores }

        /// The worst value that still passes: the tolerance, widened to the metric's noise floor.
        var limit: Double {
            metric.direction == .higherIsBetter
                ? min(baseline * (1 - tolerance), baseline - metric.noiseFloor) * (isSpeed ? machineFactor : 1)
                : max(baseline * (1 + tolerance), baseline + metric.noiseFloor)
        }

        var isRegression: Bool {
            guard let current else { return true }
            guard !isExcused else { return false }
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
            let machine = isSpeed && machineFactor < 1 ? String(format: ", × the machine factor %.2f", machineFactor) : ""
            return
                "\(benchmark): \(label) p50 \(metric.format(current)) is \(relation) the limit \(metric.format(limit)) "
                + "(baseline \(metric.format(baseline)) \(sign) \(Int((tolerance * 100).rounded())) %\(floor)\(machine))"
        }
    }

    /// Other processes' CPU use (in cores) above which a wall-clock throughput is not judged.
    static let busyCores = 0.25

    /// The judged metrics of `result` against the baseline's p50s.
    ///
    /// A CPU-bound benchmark's speed is judged relative to the machine's, measured around each run (see
    /// ``Calibration``), never as it is: in CPU time (`cpuRelative`), which a busy machine does not move, and for a
    /// benchmark of several threads also in wall-clock time (`throughputRelative`: how well the threads overlap),
    /// unless the machine was busy then. A baseline without `cpuRelative` (recorded before it existed) is judged
    /// by `throughputRelative` alone. A metric whose baseline runs spread widely gets a tolerance of three times
    /// that spread (up to 60 %) when that is wider than `tolerance`.
    static func compare(
        _ entry: Baseline.Entry, _ benchmark: Benchmark, _ result: BenchmarkResult, tolerance: Double
    ) -> [Comparison] {
        let relative = entry.p50["throughputRelative"] != nil
        let inCPUTime = entry.p50["cpuRelative"] != nil
        return entry.p50.keys.sorted { order($0) < order($1) }.compactMap { name in
            guard let metric = Metric.named(name), metric.direction != .informational,
                !benchmark.unjudged.contains(name), let baseline = entry.p50[name],
                !(relative && name == "throughput"),
                !(inCPUTime && name == "throughputRelative" && benchmark.threads == 1)
            else { return nil }
            let spread = entry.p90[name].map { baseline > 0 ? abs($0 - baseline) / baseline : 0 } ?? 0
            return Comparison(
                benchmark: entry.name, metric: metric, unit: result.unit, baseline: baseline,
                current: result.percentiles(name)?.p50, tolerance: max(tolerance, min(0.6, 3 * spread)),
                isWallClock: name == "throughputRelative", othersCPU: result.percentiles("othersCPU")?.p50)
        }
    }

    private static func order(_ name: String) -> Int { Metric.all.firstIndex { $0.name == name } ?? Int.max }

    /// The better p50 of two measurements, metric by metric, for a benchmark measured again.
    static func best(_ first: [Comparison], _ second: [Comparison]) -> [Comparison] {
        zip(first, second).map { a, b in
            guard let x = a.current, let y = b.current else { return a.current == nil ? b : a }
            // A measurement that passes (or is excused) settles it; otherwise the better value stands.
            if a.isRegression != b.isRegression { return a.isRegression ? b : a }
            let firstIsBetter = a.metric.direction == .higherIsBetter ? x >= y : x <= y
            return firstIsBetter ? a : b
        }
    }

    /// Measurements of a benchmark that looks regressed before the regression counts.
    static let attempts = 3

    /// Says that `filter` matches no benchmark of `place` (a baseline's path, or "this suite"), and lists them.
    static func nothingMatches(_ filter: String, in place: String, names: [String]) -> String {
        "no benchmark of \(place) has '\(filter)' in its name; its benchmarks: " + names.joined(separator: ", ")
    }

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
        if entries.isEmpty, let filter {
            stderr("Error: " + nothingMatches(filter, in: path, names: baseline.entries.map(\.name)))
            return 64
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if let measured = baseline.cores, measured != cores {
            stderr("warning: the baseline was measured on \(measured) cores, this machine has \(cores)")
        }
        stderr(
            "checking \(entries.count) benchmarks against \(path) (tolerance \(Int((tolerance * 100).rounded())) %)")
        // Every benchmark once, then the machine factor from all of them, then again each one that still looks
        // regressed: a regression must persist over `attempts` measurements, a little apart (a shared machine has
        // bursts: someone's build takes a core for a few seconds); each metric keeps its best p50.
        var measured: [(entry: Baseline.Entry, benchmark: Benchmark, comparisons: [Comparison])] = []
        var failures: [String] = []
        for entry in entries {
            guard let benchmark = Workloads.named(entry.name, baseline.configuration) else {
                failures.append("\(entry.name): no such benchmark")
                continue
            }
            do {
                stderr("running \(benchmark.name): \(benchmark.summary)")
                let result = try await measure(benchmark, runs: runs ?? entry.runs)
                measured.append((entry, benchmark, compare(entry, benchmark, result, tolerance: tolerance)))
            } catch {
                failures.append("\(entry.name): \(error)")
            }
        }
        let median = MachineFactor.median(measured.map(\.comparisons))
        let factor = MachineFactor.factor(median: median)
        stderr(machineLine(median: median, factor: factor, baseline: baseline))
        func scaled(_ found: [Comparison]) -> [Comparison] {
            found.map { comparison in
                var comparison = comparison
                comparison.machineFactor = factor
                return comparison
            }
        }
        var comparisons: [Comparison] = []
        for (entry, benchmark, first) in measured {
            var found = scaled(first)
            var attempt = 1
            while found.contains(where: \.isRegression) && attempt < attempts {
                attempt += 1
                stderr(
                    "  \(benchmark.name) looks worse than the baseline (load average \(loadAverage())): "
                        + "measuring it again (\(attempt) of \(attempts))")
                do {
                    try await Task.sleep(nanoseconds: 2_000_000_000)
                    let again = try await measure(benchmark, runs: runs ?? entry.runs)
                    found = best(found, scaled(compare(entry, benchmark, again, tolerance: tolerance)))
                } catch {
                    failures.append("\(entry.name): \(error)")
                    break
                }
            }
            comparisons += found
        }
        print(table(comparisons), terminator: "")
        let regressions = comparisons.filter(\.isRegression).map(\.explanation) + failures
        let excused = comparisons.filter(\.isExcused).count
        if excused > 0 {
            print(
                "\(excused) wall-clock metric\(excused == 1 ? "" : "s") not judged: other processes kept more than "
                    + "\(busyCores) cores busy (their CPU-time metrics are judged); check again on a quiet machine")
        }
        if regressions.isEmpty {
            print(
                "no regressions: \(comparisons.count - excused) metrics of \(entries.count) benchmarks within "
                    + "tolerance")
            return 0
        }
        print(
            "\(regressions.count) regression\(regressions.count == 1 ? "" : "s") (each persisted over \(attempts) "
                + "measurements; load average now \(loadAverage())):")
        for line in regressions { print("  " + line) }
        return 1
    }

    /// What the check makes of this machine against the baseline's.
    static func machineLine(median: Double?, factor: Double, baseline: Baseline) -> String {
        let processor = Processor.name
        var line: String
        if let median {
            line = String(format: "machine factor %.2f: the suite runs at %.2f× the baseline's speed (median)", factor, median)
            if factor < 1 { line += "; speed limits are scaled by it" }
            if median < MachineFactor.minimum { line += "; below the cap: record a baseline on this machine" }
        } else {
            line = "machine factor 1: fewer than \(MachineFactor.minimumBenchmarks) benchmarks measured"
        }
        if let recorded = baseline.processor, recorded != processor {
            line += " (baseline recorded on \"\(recorded)\", this machine: \"\(processor)\")"
        }
        return line
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
            if comparison.isExcused {
                text += String(format: "  not judged: other processes used %.2f cores\n", comparison.othersCPU ?? 0)
            } else {
                text += comparison.isRegression ? "  REGRESSION\n" : "  ok\n"
            }
        }
        return text
    }

    static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
