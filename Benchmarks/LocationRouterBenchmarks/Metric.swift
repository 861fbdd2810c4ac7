import Foundation

/// A metric the suite reports: its package-benchmark name, the unit it is stored in (JSON), how it is shown,
/// and whether `--check` judges it.
struct Metric: Sendable {
    enum Direction: Sendable {
        /// A regression is a value below baseline × (1 − tolerance).
        case higherIsBetter
        /// A regression is a value above baseline × (1 + tolerance).
        case lowerIsBetter
        /// Reported, never judged.
        case informational
    }

    var name: String
    /// The stored unit (JSON); `%` stands for the benchmark's unit (`updates/s`).
    var storedUnit: String
    /// The unit the table shows; `%` as above.
    var shownUnit: String
    var direction: Direction
    /// A difference smaller than this (in the stored unit) is never a regression, whatever the ratio: memory
    /// and latency have a few MiB and a fraction of a millisecond of noise that a ratio of a small value magnifies.
    var noiseFloor: Double
    var format: @Sendable (Double) -> String

    init(
        _ name: String, stored: String, shown: String, _ direction: Direction, noiseFloor: Double = 0,
        format: @escaping @Sendable (Double) -> String
    ) {
        self.name = name
        self.storedUnit = stored
        self.shownUnit = shown
        self.direction = direction
        self.noiseFloor = noiseFloor
        self.format = format
    }

    func unit(for benchmarkUnit: String) -> String { storedUnit.replacingOccurrences(of: "%", with: benchmarkUnit) }

    /// `throughput (updates/s)`.
    func label(for benchmarkUnit: String) -> String {
        "\(name) (\(shownUnit.replacingOccurrences(of: "%", with: benchmarkUnit)))"
    }

    static let mebibyte = 1_048_576.0

    /// Every metric, in display order.
    static let all: [Metric] = [
        Metric("throughput", stored: "%/s", shown: "%/s", .higherIsBetter, format: count),
        // Throughput over the machine's speed measured around the same run (``Calibration``): what --check judges.
        Metric("throughputRelative", stored: "% per calibration op", shown: "%/1k cal. ops", .higherIsBetter) {
            String(format: "%.4g", $0 * 1e3)
        },
        // Units per CPU-second over the calibration's operations per CPU-second: holds on a busy machine.
        Metric("cpuRelative", stored: "% per calibration op (CPU time)", shown: "%/1k cal. ops, CPU", .higherIsBetter) {
            String(format: "%.4g", $0 * 1e3)
        },
        Metric("calibration", stored: "ops/s", shown: "ops/s", .informational, format: count),
        Metric("throughputBytes", stored: "bytes/s", shown: "MB/s", .informational) {
            String(format: "%.1f", $0 / 1e6)
        },
        Metric("throughputEvents", stored: "events/s", shown: "events/s", .informational, format: count),
        // The inverse of throughput for the same work: judged there, not twice.
        Metric("wallClock", stored: "s", shown: "ms", .informational) { String(format: "%.1f", $0 * 1e3) },
        Metric("cpuTotal", stored: "s", shown: "ms", .informational) { String(format: "%.1f", $0 * 1e3) },
        // The process's peak: it includes what earlier benchmarks left resident, so it is judged as the footprint.
        Metric("peakMemoryResident", stored: "bytes", shown: "MiB", .informational, format: mebibytes),
        Metric(
            "memoryFootprint", stored: "bytes", shown: "MiB", .lowerIsBetter, noiseFloor: 8 * mebibyte,
            format: mebibytes),
        Metric("peakMemoryResidentDelta", stored: "bytes", shown: "MiB", .informational, format: mebibytes),
        Metric("residentAtFirstWrite", stored: "bytes", shown: "MiB", .informational, format: mebibytes),
        Metric("residentAtLastWrite", stored: "bytes", shown: "MiB", .informational, format: mebibytes),
        Metric(
            "residentGrowth", stored: "bytes", shown: "MiB", .lowerIsBetter, noiseFloor: 4 * mebibyte, format: mebibytes
        ),
        Metric("bytesPerDevice", stored: "bytes", shown: "B", .informational) { String(format: "%.0f", $0) },
        Metric("bytesPerRegion", stored: "bytes", shown: "B", .informational) { String(format: "%.1f", $0) },
        Metric("residentPerRegion", stored: "bytes", shown: "B", .informational) { String(format: "%.1f", $0) },
        Metric("coverageRatio", stored: "ratio", shown: "ratio", .informational) { String(format: "%.4f", $0) },
        Metric("registrationPerDevice", stored: "ns", shown: "µs", .informational) { String(format: "%.2f", $0 / 1e3) },
        Metric("latencyP50", stored: "ms", shown: "ms", .informational, format: milliseconds),
        Metric("latencyP99", stored: "ms", shown: "ms", .lowerIsBetter, noiseFloor: 2, format: milliseconds),
        Metric("latencyMax", stored: "ms", shown: "ms", .informational, format: milliseconds),
        // Cores the machine's other processes kept busy during the run: 0 on an idle machine.
        Metric("othersCPU", stored: "cores", shown: "cores", .informational) { String(format: "%.2f", $0) },
    ]

    static func named(_ name: String) -> Metric? { all.first { $0.name == name } }

    @Sendable static func count(_ value: Double) -> String {
        switch value {
        case 1e6...: String(format: "%.3g M", value / 1e6)
        case 1e3...: String(format: "%.3g k", value / 1e3)
        default: String(format: "%.3g", value)
        }
    }

    @Sendable static func mebibytes(_ value: Double) -> String { String(format: "%.1f", value / mebibyte) }
    @Sendable static func milliseconds(_ value: Double) -> String { String(format: "%.3f", value) }
}
