import Foundation
import GeofenceKit
import LocationRouter
import Synchronization

/// The whole pipeline (`Simulation.run()` over a random walk, one shard per core): at full speed with events
/// counted or written as NDJSON to /dev/null, paced, and against a sink much slower than the source.
///
/// Every run checks the report's promise: `dropped == 0` and every emitted event delivered.
enum PipelineBenchmarks {
    enum Output: Sendable {
        /// No sink: the dispatcher counts events (and measures their latency) without encoding them.
        case counted
        /// Encoded as NDJSON and written to /dev/null.
        case ndjsonToDevNull
    }

    static func configuration(devices: Int, regions: Int, seconds: Int, pace: Pace = .max) -> SimulationConfiguration {
        SimulationConfiguration(
            source: .randomWalk(Workloads.walk(devices: devices, regions: regions, seconds: seconds)),
            seed: Workloads.seed,
            pace: pace)
    }

    /// - Parameter bytesPerDevice: whether to report the run's peak memory growth per device (the scale matrix).
    static func fullSpeed(
        name: String? = nil, devices: Int, regions: Int, seconds: Int, output: Output, bytesPerDevice: Bool = false
    ) -> Benchmark {
        let configuration = configuration(devices: devices, regions: regions, seconds: seconds)
        let shards = configuration.shards
        return Benchmark(
            name: name ?? (output == .counted ? "pipeline" : "pipelineNDJSON"),
            summary: "whole pipeline, \(shards) shards: \(Workloads.shape(devices, regions)), \(seconds + 1) samples "
                + "per device, " + (output == .counted ? "events counted" : "events as NDJSON to /dev/null"),
            unit: "updates",
            prepare: {
                {
                    let before = Memory.resident()
                    let sink =
                        output == .counted ? nil : try CountingSink(forwardingTo: FileDescriptorSink(path: "/dev/null"))
                    let report = try await run(configuration, sink: sink)
                    var outcome = Outcome(units: report.updates, bytes: sink?.bytes, metrics: latencyMetrics(report))
                    outcome.metrics["throughputEvents"] = Double(report.eventsEmitted) / report.wallSeconds
                    if bytesPerDevice {
                        outcome.metrics["bytesPerDevice"] =
                            Double(max(0, ProcessResources.peakResidentBytes() - before)) / Double(devices)
                    }
                    return outcome
                }
            },
            unjudged: ["latencyP99"], threads: shards)
    }

    /// The pipeline paced to `updatesPerSecond` (devices send one sample per simulated second, so the pace factor
    /// is `updatesPerSecond / devices` simulated seconds per wall second).
    static func paced(devices: Int, regions: Int, seconds: Int, updatesPerSecond: Int) -> Benchmark {
        let factor = Double(updatesPerSecond) / Double(devices)
        let configuration = configuration(devices: devices, regions: regions, seconds: seconds, pace: .factor(factor))
        return Benchmark(
            name: "pipelinePaced",
            summary: "whole pipeline paced to \(Metric.count(Double(updatesPerSecond))) updates/s (Pace.factor("
                + "\(String(format: "%g", factor)))): \(Workloads.shape(devices, regions)), \(seconds) simulated s, "
                + "events as NDJSON to /dev/null",
            unit: "updates",
            prepare: {
                {
                    let sink = try CountingSink(forwardingTo: FileDescriptorSink(path: "/dev/null"))
                    let report = try await run(configuration, sink: sink)
                    return Outcome(units: report.updates, bytes: sink.bytes, metrics: latencyMetrics(report))
                }
            },
            // Its latency tail measures how soon a woken thread gets a core: the machine's load, on a shared one.
            unjudged: ["latencyP99"], rateLimited: true)
    }

    /// The pipeline against a sink that takes `bytesPerSecond` (it sleeps after each write for as long as the
    /// bytes would take): memory must stay flat because the source is held back, and nothing may be dropped.
    ///
    /// The sink notes the resident memory at each write: from the first write (the devices are registered by
    /// then, the sink already holds everything back) to the last, a bounded pipeline does not grow, while an
    /// unbounded queue would hold every sample the source made meanwhile. `peakMemoryResidentDelta` is the
    /// run's whole growth, the monitors' state included.
    static func slowSink(devices: Int, regions: Int, seconds: Int, bytesPerSecond: Double) -> Benchmark {
        let configuration = configuration(devices: devices, regions: regions, seconds: seconds)
        return Benchmark(
            name: "pipelineSlowSink",
            summary: "whole pipeline into a sink taking \(Int(bytesPerSecond / 1000)) kB/s (~100× slower than the "
                + "source): \(Workloads.shape(devices, regions)), \(seconds) simulated s; memory at first/last write",
            unit: "updates",
            prepare: {
                {
                    let before = Memory.resident()
                    let sink = SlowSink(bytesPerSecond: bytesPerSecond)
                    let report = try await run(configuration, sink: sink)
                    let peak = ProcessResources.peakResidentBytes()
                    let resident = sink.residentAtWrites
                    guard let first = resident.first, let last = resident.last, resident.count >= 2 else {
                        throw BenchmarkFailure("the sink got \(resident.count) writes: too few to watch memory")
                    }
                    guard sink.lines == report.eventsEmitted else {
                        throw BenchmarkFailure("the sink got \(sink.lines) lines for \(report.eventsEmitted) events")
                    }
                    guard report.backPressureWaits > 0, report.peakBatchesInFlight <= report.batchCapacity else {
                        throw BenchmarkFailure(
                            "back-pressure: \(report.backPressureWaits) waits, \(report.peakBatchesInFlight) batches in "
                                + "flight for \(report.batchCapacity) credits")
                    }
                    var outcome = Outcome(units: report.updates, bytes: sink.bytes, metrics: latencyMetrics(report))
                    outcome.metrics["residentAtFirstWrite"] = Double(first)
                    outcome.metrics["residentAtLastWrite"] = Double(last)
                    outcome.metrics["residentGrowth"] = Double(max(0, last - first))
                    outcome.metrics["peakMemoryResidentDelta"] = Double(max(0, peak - before))
                    return outcome
                }
            },
            warmup: false, maxRuns: 3, rateLimited: true)
    }

    /// Runs a simulation and checks that nothing was lost.
    static func run(_ configuration: SimulationConfiguration, sink: (any EventSink)?) async throws -> RunReport {
        let report = try await Simulation(configuration: configuration, sink: sink).run()
        guard report.dropped == 0, report.notificationsDelivered == report.eventsEmitted else {
            throw BenchmarkFailure(
                "dropped \(report.dropped), delivered \(report.notificationsDelivered) of \(report.eventsEmitted) events"
            )
        }
        guard report.eventsEmitted > 0 else { throw BenchmarkFailure("the run caused no event") }
        return report
    }

    /// The run's event latency percentiles, from the sample entering the pipeline to the event handed to the sink.
    static func latencyMetrics(_ report: RunReport) -> [String: Double] {
        var metrics: [String: Double] = [:]
        for (name, value) in report.latencyMilliseconds {
            switch name {
            case "p50": metrics["latencyP50"] = value
            case "p99": metrics["latencyP99"] = value
            case "max": metrics["latencyMax"] = value
            default: break
            }
        }
        return metrics
    }
}

/// Forwards to another sink and counts the bytes.
final class CountingSink: EventSink {
    private let destination: any EventSink
    private let counter = Atomic<Int>(0)

    init(forwardingTo destination: any EventSink) {
        self.destination = destination
    }

    var bytes: Int { counter.load(ordering: .relaxed) }

    func write(_ bytes: [UInt8]) async throws {
        counter.add(bytes.count, ordering: .relaxed)
        try await destination.write(bytes)
    }

    func close() async throws { try await destination.close() }
}

/// A sink that takes `bytesPerSecond`: after each write it sleeps for as long as the bytes would take. It notes
/// the process's resident memory at each write.
final class SlowSink: EventSink {
    private let bytesPerSecond: Double
    private let byteCounter = Atomic<Int>(0)
    private let lineCounter = Atomic<Int>(0)
    private let resident = Mutex<[Int]>([])

    init(bytesPerSecond: Double) {
        self.bytesPerSecond = bytesPerSecond
    }

    var bytes: Int { byteCounter.load(ordering: .relaxed) }
    var lines: Int { lineCounter.load(ordering: .relaxed) }
    var residentAtWrites: [Int] { resident.withLock { $0 } }

    func write(_ bytes: [UInt8]) async throws {
        byteCounter.add(bytes.count, ordering: .relaxed)
        lineCounter.add(bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }, ordering: .relaxed)
        let now = Memory.resident()
        resident.withLock { $0.append(now) }
        try await Task.sleep(nanoseconds: UInt64(Double(bytes.count) / bytesPerSecond * 1e9))
    }

    func close() async throws {}
}
