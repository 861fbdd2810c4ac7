import GeofenceKit
import LocationRouter
import Synchronization

/// The order in which the evaluation loop sees the samples.
enum SampleOrder: Sendable {
    /// Time step by time step, every device once per step: as the pipeline's shards see them.
    case interleaved
    /// One device's samples back to back, then the next device's: its regions stay in cache.
    case deviceMajor
}

/// The ceiling: one core, one ``MonitorState`` over pre-generated samples, nothing else.
///
/// Preparation generates the walk and registers every device with its first sample (the walk's step 0, its CPU
/// time measured apart as `registrationPerDevice`), so the measured loop is evaluation alone: `steps` further samples per
/// device, in batches of 4,096 through the monitor's batch call (``MonitorState/evaluate(devices:latitudes:longitudes:times:accuracies:from:into:eventLimit:)``,
/// as a pipeline's shard calls it). Each run shifts the samples' times past the previous run's, so the same state
/// is reused (never copied) and no sample is out of order.
enum EvaluationLoop {
    static func name(_ order: SampleOrder) -> String {
        order == .interleaved ? "evaluationLoop" : "evaluationLoopDeviceMajor"
    }

    static func benchmark(
        name: String? = nil, devices: Int, regions: Int, steps: Int, order: SampleOrder
    ) -> Benchmark {
        let orderText = order == .interleaved ? "interleaved across devices" : "device-major"
        return Benchmark(
            name: name ?? Self.name(order),
            summary: "one core: MonitorState over pre-generated samples, \(Workloads.shape(devices, regions)), "
                + "\(steps) samples per device, \(orderText) (the ceiling)",
            unit: "updates",
            prepare: {
                let walk = Workloads.walk(devices: devices, regions: regions, seconds: steps)
                let plan = RandomWalkPlan(configuration: walk, seed: Workloads.seed)
                var all = Workloads.samples(of: walk)
                guard all.count == devices * (steps + 1) else {
                    throw BenchmarkFailure("the walk made \(all.count) samples, expected \(devices * (steps + 1))")
                }
                let residentBefore = Memory.resident()
                // Registered as the CLI registers generated circles (the fast path, around the first samples).
                var state = MonitorState(
                    settings: .exact, stride: 1, seed: Workloads.seed,
                    positionedCircles: { plan.circles(ofDevice: $0, startingAt: $1, $2, into: &$3) })
                // Sized up front, as `Simulation` sizes each shard's table: no doubling of the slot table.
                state.reserveCapacity(devices: devices, regions: devices * regions)
                var events: [GeofenceEvent] = []
                // CPU time, not wall-clock: on a shared machine the wall clock measures the others' load.
                let registrationStart = ProcessResources.cpuSeconds()
                for i in 0..<devices {
                    _ = state.evaluate(
                        device: all.devices[i], latitude: all.latitudes[i], longitude: all.longitudes[i],
                        time: Timestamp(microseconds: all.times[i]), into: &events)
                    events.removeAll(keepingCapacity: true)
                }
                let registration = (ProcessResources.cpuSeconds() - registrationStart) * 1e9 / Double(devices)
                let stateBytes = max(0, Memory.resident() - residentBefore)
                var measured = Workloads.Samples(capacity: devices * steps)
                switch order {
                case .interleaved:
                    for i in devices..<all.count { measured.append(from: all, at: i) }
                case .deviceMajor:
                    for device in 0..<devices {
                        for step in 1...steps { measured.append(from: all, at: step * devices + device) }
                    }
                }
                all = Workloads.Samples()
                // The loop holds the times alone and moves them on in place after each run: a copy kept here too
                // would be a second 8 bytes a sample in the footprint.
                let loop = Loop(state: state, times: measured.times, span: Int64(steps + 1) * 1_000_000)
                measured.times = []
                let samples = measured
                let bytesPerDevice = Double(stateBytes) / Double(devices)
                return {
                    _ = loop.run(samples)
                    return Outcome(
                        units: samples.count,
                        metrics: ["bytesPerDevice": bytesPerDevice, "registrationPerDevice": registration])
                }
            })
    }

    /// The state a benchmark's runs share, one run at a time.
    final class Loop: Sendable {
        private struct Inner {
            var state: MonitorState
            /// The samples' times of the next run: each run moves them `span` later.
            var times: [Int64]
            var events: [GeofenceEvent] = []
        }

        private let inner: Mutex<Inner>
        /// How far each run's times lie after the previous run's (microseconds).
        private let span: Int64
        /// Samples per call of the monitor: a batch of the pipeline's random walk.
        static let batchSize = 4096

        init(state: MonitorState, times: [Int64], span: Int64) {
            inner = Mutex(Inner(state: state, times: times))
            self.span = span
        }

        /// Evaluates every sample once, batch by batch through the monitor's batch call (as a pipeline's shard
        /// does); returns the events they caused.
        func run(_ samples: Workloads.Samples) -> Int {
            inner.withLock { inner in
                var total = 0
                samples.devices.withUnsafeBufferPointer { devices in
                    samples.latitudes.withUnsafeBufferPointer { latitudes in
                        samples.longitudes.withUnsafeBufferPointer { longitudes in
                            inner.times.withUnsafeBufferPointer { times in
                                var start = 0
                                while start < devices.count {
                                    let batch = start..<min(devices.count, start + Self.batchSize)
                                    _ = inner.state.evaluate(
                                        devices: UnsafeBufferPointer(rebasing: devices[batch]),
                                        latitudes: UnsafeBufferPointer(rebasing: latitudes[batch]),
                                        longitudes: UnsafeBufferPointer(rebasing: longitudes[batch]),
                                        times: UnsafeBufferPointer(rebasing: times[batch]), into: &inner.events)
                                    total += inner.events.count
                                    inner.events.removeAll(keepingCapacity: true)
                                    start = batch.upperBound
                                }
                            }
                        }
                    }
                }
                // The next run's times (one addition per sample, about 1 % of a run).
                for index in inner.times.indices { inner.times[index] &+= span }
                return total
            }
        }
    }
}
