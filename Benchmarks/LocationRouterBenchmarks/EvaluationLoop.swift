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
/// device. Each run shifts the samples' times past the previous run's, so the same state is reused (never copied)
/// and no sample is out of order.
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
                // Registered as the CLI registers generated circles (the fast path).
                var state = MonitorState(settings: .exact, stride: 1, seed: Workloads.seed) {
                    plan.circles(ofDevice: $0, into: &$1)
                }
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
                let samples = measured
                let loop = Loop(state: state, span: Int64(steps + 1) * 1_000_000)
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
            var run: Int64 = 0
            var events: [GeofenceEvent] = []
        }

        private let inner: Mutex<Inner>
        /// How far each run's times lie after the previous run's (microseconds).
        private let span: Int64

        init(state: MonitorState, span: Int64) {
            inner = Mutex(Inner(state: state))
            self.span = span
        }

        /// Evaluates every sample once; returns the events they caused.
        func run(_ samples: Workloads.Samples) -> Int {
            inner.withLock { inner in
                let offset = inner.run * span
                inner.run += 1
                var total = 0
                for i in 0..<samples.count {
                    _ = inner.state.evaluate(
                        device: samples.devices[i], latitude: samples.latitudes[i], longitude: samples.longitudes[i],
                        time: Timestamp(microseconds: samples.times[i] &+ offset), into: &inner.events)
                    if inner.events.count >= 4096 {
                        total += inner.events.count
                        inner.events.removeAll(keepingCapacity: true)
                    }
                }
                total += inner.events.count
                inner.events.removeAll(keepingCapacity: true)
                return total
            }
        }
    }
}
