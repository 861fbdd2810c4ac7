/// How fast this machine runs the whole suite against the machine that recorded the baseline, beyond what the
/// calibration sees: the check's allowance for a machine of the same class with another processor.
///
/// The calibration (integer and floating-point arithmetic that touches no memory) measures a core's arithmetic,
/// but machines of one class differ in more than that. The same build, checked against a baseline recorded on
/// another 2-core machine of this class, came out lower in `cpuRelative` in every stage, from −4 %
/// (`evaluationLoopDeviceMajor`) to −48 % (`decodeCSV`), median −24 %: its caches and memory were slower next to its
/// arithmetic. Judged against the calibration alone, that was 7 "regressions" without a change of code.
///
/// So the stages are also compared with each other. The factor is the median, over the benchmarks measured, of each
/// one's current speed over its baseline speed (`cpuRelative`, or `throughputRelative` where a baseline has no
/// CPU-time figure), kept within [``minimum``, 1]; every speed limit is scaled by it. A stage then counts as a
/// regression only when it is slower than the baseline by more than the tolerance *and* slower than the rest of the
/// suite is: a change that slows one stage still stands out, a slower machine does not. A faster machine (a median
/// above 1) is judged as before. A change that slowed most of the suite at once would be absorbed up to the cap,
/// which is why the factor needs ``minimumBenchmarks`` and stops at ``minimum``.
enum MachineFactor {
    /// Fewer benchmarks than this (a `--filter`ed check) give no factor: their median says little about the machine.
    static let minimumBenchmarks = 5
    /// The slowest machine allowed for: below it, record a baseline on this machine.
    static let minimum = 0.6

    /// Whether a metric is a speed against the calibration, which the factor scales.
    static func judges(_ metric: String) -> Bool { metric == "cpuRelative" || metric == "throughputRelative" }

    /// The median of current over baseline speed per benchmark, uncapped; nil with too few benchmarks.
    static func median(_ comparisons: [[Check.Comparison]]) -> Double? {
        let ratios = comparisons.compactMap { benchmark -> Double? in
            let speed = benchmark.first { $0.metric.name == "cpuRelative" }
                ?? benchmark.first { $0.metric.name == "throughputRelative" }
            guard let speed, let current = speed.current, speed.baseline > 0 else { return nil }
            return current / speed.baseline
        }.sorted()
        guard ratios.count >= minimumBenchmarks else { return nil }
        let middle = ratios.count / 2
        return ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
    }

    /// The factor the limits are scaled by: the median within [``minimum``, 1], or 1 without one.
    static func factor(median: Double?) -> Double {
        median.map { min(1, max(minimum, $0)) } ?? 1
    }
}
