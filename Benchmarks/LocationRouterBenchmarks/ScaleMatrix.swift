import Foundation

/// `--scale`: the evaluation loop (both orders) and the pipeline at every devices × regions point, each run doing
/// about the same number of updates so that runs stay short at every scale.
enum ScaleMatrix {
    static let defaultDevices = [1_000, 10_000, 100_000, 1_000_000]
    static let defaultRegions = [1, 5, 20]

    enum Kind: String, CaseIterable, Sendable {
        case evaluationLoop, evaluationLoopDeviceMajor, pipeline
    }

    /// One benchmark of the matrix, named `kind/DEVICESxREGIONS` (`pipeline/1000000x20`).
    struct Point: Sendable, Hashable {
        var kind: Kind
        var devices: Int
        var regions: Int

        var name: String { "\(kind.rawValue)/\(devices)x\(regions)" }

        init(kind: Kind, devices: Int, regions: Int) {
            self.kind = kind
            self.devices = devices
            self.regions = regions
        }

        init?(name: String) {
            let parts = name.split(separator: "/")
            guard parts.count == 2, let kind = Kind(rawValue: String(parts[0])) else { return nil }
            let sizes = parts[1].split(separator: "x")
            guard sizes.count == 2, let devices = Int(sizes[0]), let regions = Int(sizes[1]), devices > 0, regions >= 0
            else { return nil }
            self.init(kind: kind, devices: devices, regions: regions)
        }
    }

    /// Samples per device after its first (which registers its regions): `updates / devices`, at least 1.
    static func steps(devices: Int, updates: Int) -> Int { max(1, updates / devices) }

    static func points(devices: [Int], regions: [Int]) -> [Point] {
        devices.flatMap { d in regions.flatMap { r in Kind.allCases.map { Point(kind: $0, devices: d, regions: r) } } }
    }

    static func benchmark(_ point: Point, updates: Int) -> Benchmark {
        let steps = steps(devices: point.devices, updates: updates)
        switch point.kind {
        case .evaluationLoop:
            return EvaluationLoop.benchmark(
                name: point.name, devices: point.devices, regions: point.regions, steps: steps, order: .interleaved)
        case .evaluationLoopDeviceMajor:
            return EvaluationLoop.benchmark(
                name: point.name, devices: point.devices, regions: point.regions, steps: steps, order: .deviceMajor)
        case .pipeline:
            // The first sample of each device registers it, inside the run, as in every real run.
            return PipelineBenchmarks.fullSpeed(
                name: point.name, devices: point.devices, regions: point.regions, seconds: steps, output: .counted,
                bytesPerDevice: true)
        }
    }

    /// One row per devices × regions point: the ceiling (both orders), the pipeline, their ratio and memory.
    static func table(_ results: [BenchmarkResult]) -> String {
        var byPoint: [Point: BenchmarkResult] = [:]
        var order: [[Int]] = []
        for result in results {
            guard let point = Point(name: result.name) else { continue }
            byPoint[point] = result
            if !order.contains([point.devices, point.regions]) { order.append([point.devices, point.regions]) }
        }
        func p50(_ kind: Kind, _ d: Int, _ r: Int, _ metric: String) -> Double? {
            byPoint[Point(kind: kind, devices: d, regions: r)]?.percentiles(metric)?.p50
        }
        let header = [
            "devices", "regions", "ceiling upd/s", "ns/update", "ns/check", "dev-major upd/s", "ns/check",
            "pipeline upd/s", "CPU ns/update", "pipe/ceiling", "CPU ratio", "ceiling RSS", "pipeline RSS",
            "state B/dev", "pipe B/dev", "register µs/dev",
        ]
        var rows: [[String]] = [header]
        for point in order {
            let (d, r) = (point[0], point[1])
            func text(_ value: Double?, _ format: (Double) -> String) -> String { value.map(format) ?? "–" }
            func either(_ metric: String) -> Double? {
                p50(.evaluationLoop, d, r, metric) ?? p50(.evaluationLoopDeviceMajor, d, r, metric)
            }
            let ceiling = p50(.evaluationLoop, d, r, "throughput")
            let deviceMajor = p50(.evaluationLoopDeviceMajor, d, r, "throughput")
            let pipeline = p50(.pipeline, d, r, "throughput")
            // CPU per update of the pipeline (all its threads): what it costs, whatever the machine's load.
            let pipelineCPU = pipeline.flatMap { throughput in
                p50(.pipeline, d, r, "cpuTotal").flatMap { cpu in
                    p50(.pipeline, d, r, "wallClock").map { wall in cpu / (throughput * wall) * 1e9 }
                }
            }
            let checks = Double(max(1, r))
            rows.append([
                Metric.count(Double(d)), "\(r)",
                text(ceiling, Metric.count), text(ceiling) { String(format: "%.1f", 1e9 / $0) },
                text(ceiling) { String(format: "%.2f", 1e9 / $0 / checks) },
                text(deviceMajor, Metric.count), text(deviceMajor) { String(format: "%.2f", 1e9 / $0 / checks) },
                text(pipeline, Metric.count), text(pipelineCPU) { String(format: "%.1f", $0) },
                ceiling.flatMap { c in pipeline.map { String(format: "%.2f×", $0 / c) } } ?? "–",
                ceiling.flatMap { c in pipelineCPU.map { String(format: "%.2f", 1e9 / c / $0) } } ?? "–",
                text(either("peakMemoryResident")) { String(format: "%.0f MiB", $0 / Metric.mebibyte) },
                text(p50(.pipeline, d, r, "peakMemoryResident")) { String(format: "%.0f MiB", $0 / Metric.mebibyte) },
                text(either("bytesPerDevice")) { String(format: "%.0f", $0) },
                text(p50(.pipeline, d, r, "bytesPerDevice")) { String(format: "%.0f", $0) },
                text(either("registrationPerDevice")) { String(format: "%.2f", $0 / 1e3) },
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text =
            rows.map { row in
                row.indices.map { column in
                    String(repeating: " ", count: widths[column] - row[column].count) + row[column]
                }.joined(separator: "  ")
            }.joined(separator: "\n") + "\n"
        text += """
            p50 of each benchmark's runs. ceiling = evaluationLoop (one core, samples interleaved across devices);
            dev-major = evaluationLoopDeviceMajor; ns/check = ns per update ÷ regions per device; pipeline = the whole
            pipeline on every core, events counted, its updates including each device's first (registering) sample;
            CPU ns/update = the pipeline's CPU time (all threads) per update; pipe/ceiling = throughput ratio (wall
            clock: on a shared machine it depends on what else runs); CPU ratio = ceiling's ns/update ÷ pipeline's CPU
            ns/update (1.0: the pipeline costs what the bare loop costs; × cores = the ratio an idle machine reaches);
            RSS = peak resident memory of a run (the ceiling's includes its pre-generated samples, 28 B each);
            state B/dev = the MonitorState's resident size per device, its regions included; pipe B/dev = a pipeline
            run's peak resident growth per device; register = registering one device's regions (its first sample).

            """
        return text
    }
}
