import Foundation
import GeofenceKit
import LocationRouter

/// The benchmark suite's workloads.
enum Workloads {
    /// The default scenario's shape: devices × 20 circles, random walk around Taipei.
    static func walk(devices: Int, seconds: Double) -> RandomWalkConfiguration {
        RandomWalkConfiguration(devices: devices, duration: seconds)
    }

    /// Samples of a walk, generated once, in the order a pipeline sees them (time step by time step).
    struct Samples: Sendable {
        var devices: [Int32] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var times: [Int64] = []
    }

    static func samples(of configuration: RandomWalkConfiguration, seed: UInt64) -> Samples {
        let plan = RandomWalkPlan(configuration: configuration, seed: seed)
        var lane = RandomWalkLane(plan: plan, first: 0, stride: 1)
        var samples = Samples()
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

    static func all(devices: Int) -> [Benchmark] {
        let walk = walk(devices: devices, seconds: 120)
        return [
            Benchmark(
                name: "evaluationLoop",
                summary: "one core: MonitorState over pre-generated samples, \(devices) devices × 20 circles (the ceiling)",
                prepare: {
                    let samples = samples(of: walk, seed: 42)
                    let plan = RandomWalkPlan(configuration: walk, seed: 42)
                    return {
                        var state = MonitorState(settings: .exact) { plan.regions(ofDevice: $0) }
                        var events: [GeofenceEvent] = []
                        // Register every device first, so the loop measures evaluation alone.
                        for device in 0..<Int32(walk.devices) {
                            _ = state.evaluate(device: device, latitude: 0, longitude: 0, time: Timestamp(microseconds: .min + 1), into: &events)
                        }
                        events.removeAll()
                        for i in samples.devices.indices {
                            _ = state.evaluate(
                                device: samples.devices[i], latitude: samples.latitudes[i],
                                longitude: samples.longitudes[i], time: Timestamp(microseconds: samples.times[i]),
                                into: &events)
                            if events.count > 4096 { events.removeAll(keepingCapacity: true) }
                        }
                        return samples.devices.count
                    }
                }, unit: "updates"),
            Benchmark(
                name: "randomWalk",
                summary: "one core: random-walk generation alone, \(devices) devices",
                prepare: {
                    let plan = RandomWalkPlan(configuration: walk, seed: 42)
                    return {
                        var lane = RandomWalkLane(plan: plan, first: 0, stride: 1)
                        var count = 0
                        while true {
                            var batch = LocationBatch(capacity: 1024)
                            guard lane.fill(&batch, capacity: 1024), !batch.isEmpty else { break }
                            count += batch.count
                        }
                        return count
                    }
                }, unit: "samples"),
            Benchmark(
                name: "pipeline",
                summary: "whole pipeline, all cores: \(devices) devices × 20 circles, events counted",
                prepare: {
                    { try await Simulation(configuration: configuration(walk), sink: nil).run().updates }
                }, unit: "updates"),
            Benchmark(
                name: "pipelineNDJSON",
                summary: "whole pipeline, all cores: \(devices) devices × 20 circles, events as NDJSON to /dev/null",
                prepare: {
                    {
                        let sink = try FileDescriptorSink(path: "/dev/null")
                        return try await Simulation(configuration: configuration(walk), sink: sink).run().updates
                    }
                }, unit: "updates"),
            GPXBenchmark.parse,
        ]
    }

    static func configuration(_ walk: RandomWalkConfiguration) -> SimulationConfiguration {
        SimulationConfiguration(source: .randomWalk(walk), seed: 42)
    }
}
