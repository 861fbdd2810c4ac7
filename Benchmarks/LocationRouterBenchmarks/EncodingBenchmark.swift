import GeofenceKit
import LocationRouter

/// Event encoding alone: ``EventEncoder`` turning a walk's real `enter` / `exit` events into NDJSON bytes, buffered
/// and flushed every 64 KiB as the dispatcher does (the flushed bytes go nowhere).
enum EncodingBenchmark {
    static let minimumEvents = 400_000

    static func encode(devices: Int, regions: Int, seconds: Int) -> Benchmark {
        Benchmark(
            name: "encodeEvents",
            summary: "one core: EventEncoder to NDJSON bytes, a walk's events (\(Workloads.shape(devices, regions))), "
                + "a fresh encoder per run (its name caches start cold)",
            unit: "events",
            prepare: {
                let events = try events(devices: devices, regions: regions, seconds: seconds)
                let repeats = max(1, (minimumEvents + events.count - 1) / events.count)
                // Checked once, outside the measurement: one line per event.
                var check = EventEncoder(deviceNames: .generated, regionNames: .generated(perDevice: max(1, regions)))
                var text: [UInt8] = []
                for event in events { check.encode(event, into: &text) }
                let lines = text.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                guard lines == events.count else {
                    throw BenchmarkFailure("encoded \(lines) lines for \(events.count) events")
                }
                return {
                    var encoder = EventEncoder(
                        deviceNames: .generated, regionNames: .generated(perDevice: max(1, regions)))
                    var buffer: [UInt8] = []
                    buffer.reserveCapacity(1 << 16 + 4096)
                    var bytes = 0
                    for _ in 0..<repeats {
                        for event in events {
                            encoder.encode(event, into: &buffer)
                            if buffer.count >= 1 << 16 {
                                bytes += buffer.count
                                buffer.removeAll(keepingCapacity: true)
                            }
                        }
                    }
                    bytes += buffer.count
                    return Outcome(units: repeats * events.count, bytes: bytes)
                }
            })
    }

    /// Every event of a walk, in the order a monitor emits them.
    static func events(devices: Int, regions: Int, seconds: Int) throws -> [GeofenceEvent] {
        let walk = Workloads.walk(devices: devices, regions: regions, seconds: seconds)
        let plan = RandomWalkPlan(configuration: walk, seed: Workloads.seed)
        let samples = Workloads.samples(of: walk)
        var state = MonitorState(settings: .exact, stride: 1, seed: Workloads.seed) { plan.regions(ofDevice: $0) }
        var events: [GeofenceEvent] = []
        for i in 0..<samples.count {
            _ = state.evaluate(
                device: samples.devices[i], latitude: samples.latitudes[i], longitude: samples.longitudes[i],
                time: Timestamp(microseconds: samples.times[i]), into: &events)
        }
        guard !events.isEmpty else { throw BenchmarkFailure("the walk caused no event to encode") }
        return events
    }
}
