import GeofenceKit
import LocationRouter

/// Event encoding alone: ``EventEncoder`` turning a walk's real `enter` / `exit` events into NDJSON bytes, batch by
/// batch as the dispatcher gets them (the events of 1,024 samples), the output buffered and flushed every 64 KiB
/// as the dispatcher does (the flushed bytes go nowhere).
enum EncodingBenchmark {
    static let minimumEvents = 400_000
    /// Samples per batch, as the pipeline's sources batch them.
    static let samplesPerBatch = 1_024

    static func encode(devices: Int, regions: Int, seconds: Int) -> Benchmark {
        Benchmark(
            name: "encodeEvents",
            summary: "one core: EventEncoder to NDJSON bytes, a walk's events (\(Workloads.shape(devices, regions))) "
                + "in the pipeline's batches, a fresh encoder per run (its name caches start cold)",
            unit: "events",
            prepare: {
                let batches = try events(devices: devices, regions: regions, seconds: seconds)
                let count = batches.reduce(0) { $0 + $1.count }
                let repeats = max(1, (minimumEvents + count - 1) / count)
                // Checked once, outside the measurement: one line per event, the same bytes event by event.
                var single = EventEncoder(deviceNames: .generated, regionNames: .generated(perDevice: max(1, regions)))
                var batched = single
                var text: [UInt8] = []
                var batchText: [UInt8] = []
                for batch in batches {
                    for event in batch { single.encode(event, into: &text) }
                    batched.encode(batch, into: &batchText)
                }
                let lines = text.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                guard lines == count, batchText == text else {
                    throw BenchmarkFailure("encoded \(lines) lines for \(count) events, or batches encoded otherwise")
                }
                return {
                    var encoder = EventEncoder(
                        deviceNames: .generated, regionNames: .generated(perDevice: max(1, regions)))
                    var buffer: [UInt8] = []
                    buffer.reserveCapacity(1 << 16 + 16_384)
                    var bytes = 0
                    for _ in 0..<repeats {
                        for batch in batches {
                            encoder.encode(batch, into: &buffer)
                            if buffer.count >= 1 << 16 {
                                bytes += buffer.count
                                buffer.removeAll(keepingCapacity: true)
                            }
                        }
                    }
                    bytes += buffer.count
                    return Outcome(units: repeats * count, bytes: bytes)
                }
            })
    }

    /// Every event of a walk in the order a monitor emits them, cut where the pipeline's batches end.
    static func events(devices: Int, regions: Int, seconds: Int) throws -> [[GeofenceEvent]] {
        let walk = Workloads.walk(devices: devices, regions: regions, seconds: seconds)
        let plan = RandomWalkPlan(configuration: walk, seed: Workloads.seed)
        let samples = Workloads.samples(of: walk)
        var state = MonitorState(settings: .exact, stride: 1, seed: Workloads.seed) { plan.regions(ofDevice: $0) }
        var batches: [[GeofenceEvent]] = []
        var events: [GeofenceEvent] = []
        for i in 0..<samples.count {
            _ = state.evaluate(
                device: samples.devices[i], latitude: samples.latitudes[i], longitude: samples.longitudes[i],
                time: Timestamp(microseconds: samples.times[i]), into: &events)
            if (i + 1) % samplesPerBatch == 0 || i == samples.count - 1, !events.isEmpty {
                batches.append(events)
                events.removeAll()
            }
        }
        guard !batches.isEmpty else { throw BenchmarkFailure("the walk caused no event to encode") }
        return batches
    }
}
