import Foundation

/// Renders benchmark results as a text table or JSON.
enum Report {
    static func table(_ results: [BenchmarkResult]) -> String {
        var text = "benchmark        metric               p50          p90          p99         p100\n"
        for result in results {
            let rows: [(String, [String: Double], (Double) -> String)] = [
                ("throughput (\(result.unit)/s)", result.throughput, { String(format: "%.3g M", $0 / 1e6) }),
                ("wallClock (ms)", result.wallClock, { String(format: "%.1f", $0 * 1e3) }),
                ("cpuTotal (ms)", result.cpuTotal, { String(format: "%.1f", $0 * 1e3) }),
                ("peakMemoryResident (MiB)", result.peakMemoryResident, { String(format: "%.1f", $0 / 1_048_576) }),
            ]
            for (index, row) in rows.enumerated() {
                let name = index == 0 ? result.name : ""
                text += name.padding(toLength: 17, withPad: " ", startingAt: 0)
                text += row.0.padding(toLength: 26, withPad: " ", startingAt: 0)
                for key in ["p50", "p90", "p99", "p100"] {
                    let cell = row.2(row.1[key] ?? 0)
                    text += String(repeating: " ", count: max(1, 12 - cell.count)) + cell + " "
                }
                text += "\n"
            }
        }
        return text
    }

    static func json(_ results: [BenchmarkResult]) -> String {
        func metric(_ values: [String: Double]) -> String {
            "{" + ["p50", "p90", "p99", "p100"].map { "\"\($0)\":\(values[$0] ?? 0)" }.joined(separator: ",") + "}"
        }
        let items = results.map { result in
            """
            {"name":"\(result.name)","unit":"\(result.unit)","runs":\(result.runs.count),\
            "throughput":\(metric(result.throughput)),"wallClock":\(metric(result.wallClock)),\
            "cpuTotal":\(metric(result.cpuTotal)),"peakMemoryResident":\(metric(result.peakMemoryResident))}
            """
        }
        return "{\"benchmarks\":[" + items.joined(separator: ",") + "]}\n"
    }
}
