import Foundation
import GeofenceKit
import LocationRouter

/// The shape of the default suite's workloads (`--devices`, `--regions`), and of the scale matrix (`--updates`).
struct SuiteConfiguration: Sendable {
    var devices = 10_000
    var regions = 20
    /// Simulated seconds of the default suite's walks (one sample per device and second).
    var seconds = 120
    /// Simulated seconds of the full-speed pipeline benchmarks: the CLI's run of issue 15
    /// (`location-router --devices 10000 --duration 3000 --no-events`), so that registering the devices weighs in
    /// them as little as in that run, and their throughput is the CLI's.
    var pipelineSeconds = 3_000
    /// Updates per run of each scale-matrix point.
    var updates = 3_000_000
    var runs = 5
}

/// The suite's workloads: the stages alone, and the whole pipeline.
enum Workloads {
    static let seed: UInt64 = 42

    /// The default scenario's shape: devices × `regions` circles, a random walk around Taipei, one sample per
    /// device and simulated second.
    static func walk(devices: Int, regions: Int, seconds: Int) -> RandomWalkConfiguration {
        RandomWalkConfiguration(
            devices: devices, duration: Double(seconds), regions: GeneratedRegionsConfiguration(perDevice: regions))
    }

    /// `10000 devices × 20 regions`, for summaries.
    static func shape(_ devices: Int, _ regions: Int) -> String {
        "\(devices) devices × \(regions) region\(regions == 1 ? "" : "s")"
    }

    /// Samples of a walk, generated once, as struct-of-arrays.
    struct Samples: Sendable {
        var devices: [Int32] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var times: [Int64] = []

        var count: Int { devices.count }

        init(capacity: Int = 0) {
            devices.reserveCapacity(capacity)
            latitudes.reserveCapacity(capacity)
            longitudes.reserveCapacity(capacity)
            times.reserveCapacity(capacity)
        }

        mutating func append(from other: Samples, at index: Int) {
            devices.append(other.devices[index])
            latitudes.append(other.latitudes[index])
            longitudes.append(other.longitudes[index])
            times.append(other.times[index])
        }
    }

    /// Every sample of a walk in the order the pipeline sees them: time step by time step, devices in order.
    static func samples(of configuration: RandomWalkConfiguration) -> Samples {
        let plan = RandomWalkPlan(configuration: configuration, seed: seed)
        var lane = RandomWalkLane(plan: plan, first: 0, stride: 1)
        var samples = Samples(capacity: configuration.devices * configuration.samplesPerDevice)
        while true {
            var batch = LocationBatch(capacity: 4096)
            guard lane.fill(&batch, capacity: 4096), !batch.isEmpty else { break }
            samples.devices += batch.devices
            samples.latitudes += batch.latitudes
            samples.longitudes += batch.longitudes
            samples.times += batch.times
        }
        return samples
    }

    /// The default suite: every stage alone, then the pipeline at full speed, paced and against a slow sink.
    static func all(_ configuration: SuiteConfiguration) -> [Benchmark] {
        let devices = configuration.devices
        let regions = configuration.regions
        let seconds = configuration.seconds
        return [
            EvaluationLoop.benchmark(devices: devices, regions: regions, steps: seconds, order: .interleaved),
            EvaluationLoop.benchmark(devices: devices, regions: regions, steps: seconds, order: .deviceMajor),
            randomWalk(devices: devices, seconds: seconds),
            DecodingBenchmarks.ndjson(lines: 500_000, devices: devices),
            DecodingBenchmarks.csv(lines: 500_000, devices: devices),
            DecodingBenchmarks.blocks(format: .csv),
            DecodingBenchmarks.blocks(format: .ndjson),
            GPXBenchmark.parse,
            FilesBenchmarks.regions,
            FilesBenchmarks.regionCatalog,
            FilesBenchmarks.csv,
            FilesBenchmarks.ndjson,
            FilesBenchmarks.csvIntake,
            FilesBenchmarks.ndjsonIntake,
            EncodingBenchmark.encode(devices: devices, regions: regions, seconds: seconds),
            StateBenchmarks.save(devices: devices, regions: regions),
            StateBenchmarks.restore(devices: devices, regions: regions),
            PipelineBenchmarks.fullSpeed(
                devices: devices, regions: regions, seconds: configuration.pipelineSeconds, output: .counted),
            PipelineBenchmarks.fullSpeed(
                devices: devices, regions: regions, seconds: configuration.pipelineSeconds, output: .ndjsonToDevNull),
            PipelineBenchmarks.paced(devices: devices, regions: regions, seconds: 60, updatesPerSecond: 1_000_000),
            // 1,000 devices, so the event encoder's name caches (one entry per region that ever fired) are
            // small and the memory watched is the pipeline's queues.
            PipelineBenchmarks.slowSink(devices: 1_000, regions: regions, seconds: 120, bytesPerSecond: 500_000),
        ]
    }

    /// The benchmark a name stands for: one of the default suite's, or a scale-matrix point (`pipeline/1000x20`).
    static func named(_ name: String, _ configuration: SuiteConfiguration) -> Benchmark? {
        if let point = ScaleMatrix.Point(name: name) {
            return ScaleMatrix.benchmark(point, updates: configuration.updates)
        }
        return all(configuration).first { $0.name == name }
    }

    static func randomWalk(devices: Int, seconds: Int) -> Benchmark {
        Benchmark(
            name: "randomWalk", summary: "one core: random-walk generation alone, \(devices) devices × \(seconds) s",
            unit: "samples",
            prepare: {
                let plan = RandomWalkPlan(
                    configuration: walk(devices: devices, regions: 0, seconds: seconds), seed: seed)
                return {
                    var lane = RandomWalkLane(plan: plan, first: 0, stride: 1)
                    var count = 0
                    while true {
                        var batch = LocationBatch(capacity: 1024)
                        guard lane.fill(&batch, capacity: 1024), !batch.isEmpty else { break }
                        count += batch.count
                    }
                    return Outcome(units: count)
                }
            })
    }
}
