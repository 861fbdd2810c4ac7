import Foundation
import LocationRouter

/// One benchmark: a named workload that reports how much work one run did.
struct Benchmark: Sendable {
    var name: String
    var summary: String
    /// Prepares once (outside the measurement) and returns the measured body, which returns its unit count.
    var prepare: @Sendable () async throws -> @Sendable () async throws -> Int
    var unit: String
}

/// What one benchmark measured over several runs, with package-benchmark's metric names.
struct BenchmarkResult: Sendable {
    var name: String
    var unit: String
    var runs: [Run]

    struct Run: Sendable {
        var units: Int
        var wallSeconds: Double
        var cpuSeconds: Double
        var peakResidentBytes: Int

        var throughput: Double { Double(units) / wallSeconds }
    }

    /// The value at `fraction` (0…1) of the sorted values, nearest rank.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        let rank = max(0, min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))
        return sorted[rank]
    }

    func metric(_ value: (Run) -> Double) -> [String: Double] {
        let values = runs.map(value)
        return [
            "p50": Self.percentile(values, 0.5), "p90": Self.percentile(values, 0.9),
            "p99": Self.percentile(values, 0.99), "p100": Self.percentile(values, 1),
        ]
    }

    var throughput: [String: Double] { metric(\.throughput) }
    var wallClock: [String: Double] { metric(\.wallSeconds) }
    var cpuTotal: [String: Double] { metric(\.cpuSeconds) }
    var peakMemoryResident: [String: Double] { metric { Double($0.peakResidentBytes) } }
}

/// Measures `benchmark` `runs` times after one warm-up run.
func measure(_ benchmark: Benchmark, runs: Int) async throws -> BenchmarkResult {
    let body = try await benchmark.prepare()
    _ = try await body()
    var result = BenchmarkResult(name: benchmark.name, unit: benchmark.unit, runs: [])
    for _ in 0..<runs {
        let cpu = ProcessResources.cpuSeconds()
        let start = MonotonicClock.now()
        let units = try await body()
        let wall = Double(MonotonicClock.now() - start) / 1e9
        result.runs.append(
            .init(units: units, wallSeconds: wall, cpuSeconds: ProcessResources.cpuSeconds() - cpu,
                  peakResidentBytes: ProcessResources.peakResidentBytes()))
    }
    return result
}
