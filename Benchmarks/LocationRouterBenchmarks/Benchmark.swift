import Foundation
import LocationRouter

/// What one measured run of a benchmark did: its unit count, optionally the bytes it processed (for MB/s), and
/// any metrics of its own (latency percentiles, memory before and after, bytes per device).
struct Outcome: Sendable {
    var units: Int
    var bytes: Int?
    var metrics: [String: Double]

    init(units: Int, bytes: Int? = nil, metrics: [String: Double] = [:]) {
        self.units = units
        self.bytes = bytes
        self.metrics = metrics
    }
}

/// A benchmark that found its own output wrong (a dropped event, an undecodable line): the run fails.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One benchmark: a named workload that reports how much work one run did.
struct Benchmark: Sendable {
    var name: String
    var summary: String
    var unit: String
    /// Prepares once (outside the measurement) and returns the measured body.
    var prepare: @Sendable () async throws -> @Sendable () async throws -> Outcome
    /// Whether one unmeasured run comes first (not worth it when a run mostly sleeps).
    var warmup = true
    /// At most this many measured runs whatever `--runs` says (for benchmarks whose runs take seconds).
    var maxRuns: Int?
    /// Metrics reported but not judged by `--check` for this benchmark (the full-speed pipeline's latency, which
    /// measures queueing behind a saturated machine rather than the pipeline).
    var unjudged: Set<String> = []
    /// Threads the benchmark keeps busy (the pipeline: one per shard), for its calibration. A benchmark of more
    /// than one thread also has its wall-clock `throughputRelative` judged: it tells how well the threads overlap.
    var threads = 1
    /// Creates what several benchmarks share and the process keeps (the files workload), before the resident
    /// memory that `memoryFootprint` starts from is read, so that the footprint does not depend on which of
    /// them runs first, or alone.
    var shared: @Sendable () -> Void = {}
    /// Whether a pace or a slow sink sets the throughput rather than the CPU: it is then compared as it is,
    /// not relative to the calibration.
    var rateLimited = false
}

/// p50 / p90 / p99 / p100 of one metric over the runs (nearest rank), as package-benchmark reports them.
struct Percentiles: Sendable {
    static let keys = ["p50", "p90", "p99", "p100"]
    var p50, p90, p99, p100: Double

    init(p50: Double, p90: Double, p99: Double, p100: Double) {
        (self.p50, self.p90, self.p99, self.p100) = (p50, p90, p99, p100)
    }

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func at(_ fraction: Double) -> Double {
            let rank = Int((Double(sorted.count) * fraction).rounded(.up)) - 1
            return sorted[max(0, min(sorted.count - 1, rank))]
        }
        self.init(p50: at(0.5), p90: at(0.9), p99: at(0.99), p100: at(1))
    }

    subscript(key: String) -> Double {
        switch key {
        case "p50": p50
        case "p90": p90
        case "p99": p99
        default: p100
        }
    }
}

/// What one benchmark measured over several runs, with package-benchmark's metric names.
struct BenchmarkResult: Sendable {
    var name: String
    var unit: String
    /// Each run's metric values, by metric name (in the units of ``Metric``).
    var runs: [[String: Double]]

    /// The metrics every run reported, in display order.
    var metricNames: [String] {
        Metric.all.map(\.name).filter { name in !runs.isEmpty && runs.allSatisfy { $0[name] != nil } }
    }

    func percentiles(_ metric: String) -> Percentiles? {
        let values = runs.compactMap { $0[metric] }
        guard !values.isEmpty, values.count == runs.count else { return nil }
        return Percentiles(values)
    }
}

/// Measures `benchmark` `runs` times (after one warm-up run unless the benchmark opts out).
///
/// Before each run the kernel's peak-RSS mark is reset (Linux), so `peakMemoryResident` is that run's peak,
/// including whatever the benchmark prepared and keeps resident, and not an earlier benchmark's; `memoryFootprint`
/// is that peak over the resident memory before the benchmark prepared anything (what earlier benchmarks left
/// does not count). A CPU-bound run is framed by two ``Calibration``s: `throughputRelative` is its throughput
/// over their mean, `cpuRelative` the same in CPU time. `othersCPU` is how many cores the machine's other
/// processes kept busy meanwhile.
func measure(_ benchmark: Benchmark, runs: Int) async throws -> BenchmarkResult {
    benchmark.shared()
    // Freed memory that earlier benchmarks left in the allocator's heap goes back to the system first: reused, it
    // would not count as this benchmark's.
    Memory.releaseFreed()
    let residentBefore = Memory.resident()
    let body = try await benchmark.prepare()
    if benchmark.warmup { _ = try await body() }
    var result = BenchmarkResult(name: benchmark.name, unit: benchmark.unit, runs: [])
    for _ in 0..<min(runs, benchmark.maxRuns ?? runs) {
        let calibrationBefore = benchmark.rateLimited ? nil : await Calibration.measure(threads: benchmark.threads)
        Memory.resetPeak()
        let machineBefore = MachineCPU.busySeconds()
        let cpuBefore = ProcessResources.cpuSeconds()
        let start = MonotonicClock.now()
        let outcome = try await body()
        let wall = Double(MonotonicClock.now() - start) / 1e9
        let cpu = ProcessResources.cpuSeconds() - cpuBefore
        var values = outcome.metrics
        values["throughput"] = Double(outcome.units) / wall
        if let bytes = outcome.bytes { values["throughputBytes"] = Double(bytes) / wall }
        values["wallClock"] = wall
        values["cpuTotal"] = cpu
        let peak = ProcessResources.peakResidentBytes()
        values["peakMemoryResident"] = Double(peak)
        values["memoryFootprint"] = Double(max(0, peak - residentBefore))
        if let machineBefore, let machineAfter = MachineCPU.busySeconds() {
            values["othersCPU"] = max(0, machineAfter - machineBefore - cpu) / wall
        }
        if let calibrationBefore {
            let calibrationAfter = await Calibration.measure(threads: benchmark.threads)
            let calibration = (calibrationBefore.wall + calibrationAfter.wall) / 2
            values["calibration"] = calibration
            values["throughputRelative"] = Double(outcome.units) / wall / calibration
            let coreSpeed = (calibrationBefore.cpu + calibrationAfter.cpu) / 2
            values["cpuRelative"] = Double(outcome.units) / max(cpu, 1e-6) / coreSpeed
        }
        result.runs.append(values)
    }
    return result
}

/// The process's resident memory, as the kernel reports it.
enum Memory {
    /// Resets the peak resident set size (`VmHWM`) to the current one: Linux's `clear_refs` value 5.
    /// Elsewhere (or when refused) the peak stays the process's, and is reported as such.
    static func resetPeak() {
        #if os(Linux)
            let descriptor = open("/proc/self/clear_refs", O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = write(descriptor, "5", 1)
            close(descriptor)
        #endif
    }

    /// Fixes glibc's mmap threshold at 128 KiB (it otherwise rises as large blocks are freed): every large
    /// array is then mapped afresh and unmapped when freed, so one benchmark's freed memory neither hides nor
    /// inflates the next one's resident growth.
    static func fixAllocatorThreshold() {
        #if os(Linux)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Mallopt.self)(-3 /* M_MMAP_THRESHOLD */, 128 * 1024)
        #endif
    }

    /// Gives the allocator's free memory back to the system (glibc's `malloc_trim(0)`), so that the resident set
    /// is what is in use.
    static func releaseFreed() {
        #if os(Linux)
            typealias MallocTrim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    /// The resident set size now (`VmRSS`), in bytes; the peak where the current size cannot be read.
    static func resident() -> Int {
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = Int(line.dropFirst("VmRSS:".count).filter(\.isNumber))
            {
                return kilobytes * 1024
            }
        #endif
        return ProcessResources.peakResidentBytes()
    }
}
