import Foundation

/// Renders benchmark results as a text table or JSON (the JSON is also the `--check` baseline format).
enum Report {
    static func table(_ results: [BenchmarkResult]) -> String {
        let nameWidth = max(10, results.map(\.name.count).max() ?? 0) + 2
        let labelWidth = 42
        var text =
            "benchmark".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            + "metric".padding(toLength: labelWidth, withPad: " ", startingAt: 0)
            + ["p50", "p90", "p99", "max"].map(right).joined() + "\n"
        for result in results {
            for (index, name) in result.metricNames.enumerated() {
                guard let metric = Metric.named(name), let values = result.percentiles(name) else { continue }
                text += (index == 0 ? result.name : "").padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                text += metric.label(for: result.unit).padding(toLength: labelWidth, withPad: " ", startingAt: 0)
                text += Percentiles.keys.map { right(metric.format(values[$0])) }.joined() + "\n"
            }
        }
        return text + ratios(results)
    }

    /// The pipeline's throughput against the single-core ceiling, when both ran.
    ///
    /// Also as CPU: the ceiling's ns per update over the pipeline's CPU ns per update (all threads), which does not
    /// depend on what else the machine runs; times the cores, it is the ratio an idle machine reaches.
    static func ratios(_ results: [BenchmarkResult]) -> String {
        func p50(_ name: String, _ metric: String) -> Double? {
            results.first { $0.name == name }?.percentiles(metric)?.p50
        }
        guard let ceiling = p50("evaluationLoop", "throughput") else { return "" }
        var text = ""
        for name in ["pipeline", "pipelineNDJSON"] {
            guard let pipeline = p50(name, "throughput"), let cpu = p50(name, "cpuTotal"),
                let wall = p50(name, "wallClock")
            else { continue }
            let cpuPerUpdate = cpu / (pipeline * wall)
            text += String(
                format: "%@ / evaluationLoop (the single-core ceiling): %.2f× in throughput (%d cores, shared), "
                    + "%.2f in CPU per update (%.0f ns vs %.0f ns)\n",
                name, pipeline / ceiling, ProcessInfo.processInfo.activeProcessorCount, (1 / ceiling) / cpuPerUpdate,
                cpuPerUpdate * 1e9, 1e9 / ceiling)
        }
        return text
    }

    private static func right(_ cell: String) -> String {
        String(repeating: " ", count: max(1, 13 - cell.count)) + cell
    }

    static func json(_ results: [BenchmarkResult], configuration: SuiteConfiguration) -> String {
        var text = """
            {
              "tool": "location-router-bench",
              "configuration": {"devices": \(configuration.devices), "regions": \(configuration.regions), \
            "seconds": \(configuration.seconds), "pipelineSeconds": \(configuration.pipelineSeconds), \
            "updates": \(configuration.updates), "runs": \(configuration.runs), \
            "cores": \(ProcessInfo.processInfo.activeProcessorCount), "processor": \(quoted(Processor.name))},
              "benchmarks": [

            """
        text += results.map { result in
            var lines = [
                #"    {"name": \#(quoted(result.name)), "unit": \#(quoted(result.unit)), "runs": \#(result.runs.count),"#
            ]
            let metrics = result.metricNames.compactMap { name in
                result.percentiles(name).map { (name, $0) }
            }
            for (index, (name, values)) in metrics.enumerated() {
                let unit = Metric.named(name)?.unit(for: result.unit) ?? ""
                let fields = Percentiles.keys.map { "\(quoted($0)): \(number(values[$0]))" }.joined(separator: ", ")
                lines.append(
                    "      \(quoted(name)): {\"unit\": \(quoted(unit)), \(fields)}"
                        + (index < metrics.count - 1 ? "," : ""))
            }
            return lines.joined(separator: "\n") + "}"
        }.joined(separator: ",\n")
        return text + "\n  ]\n}\n"
    }

    /// A JSON number: integral values as integers, others with 6 significant digits.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value && abs(value) < 1e15 { return String(format: "%.0f", value) }
        if abs(value) >= 1e3 { return String(format: "%.0f", value) }
        return String(format: "%.6g", value)
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
