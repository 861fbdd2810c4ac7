import Foundation
import LocationRouter

/// State snapshots (`--state`): a short random walk whose run ends by writing every device's snapshot, and a run
/// continued from such a snapshot (read, checked, each device restored as it registers, the snapshot written again).
/// Each run works in a folder of its own under the system's temporary directory and removes it.
enum StateBenchmarks {
    /// A run of 2 samples per device that writes its snapshot: the snapshot's bytes per second, and devices.
    static func save(devices: Int, regions: Int) -> Benchmark {
        Benchmark(
            name: "stateSave",
            summary: "whole pipeline, \(Workloads.shape(devices, regions)), 2 samples per device, then the snapshot of "
                + "every device written (--state)",
            unit: "devices",
            prepare: {
                {
                    try await inFolder { path in
                        let report = try await run(devices: devices, regions: regions, seconds: 1, state: path)
                        guard report.updates == devices * 2 else {
                            throw BenchmarkFailure("\(report.updates) updates, expected \(devices * 2)")
                        }
                        return Outcome(units: devices, bytes: try snapshotBytes(at: path, devices: devices))
                    }
                }
            })
    }

    /// A run of 3 samples per device continued from the snapshot of the first 2 (written once, before the runs):
    /// the snapshot's bytes per second, and devices. The snapshot is copied into the run's folder first (a few
    /// milliseconds of the run).
    static func restore(devices: Int, regions: Int) -> Benchmark {
        Benchmark(
            name: "stateRestore",
            summary: "whole pipeline, \(Workloads.shape(devices, regions)), continued from the snapshot of 2 samples "
                + "per device to 3 (--state): read, restored and written again",
            unit: "devices",
            prepare: {
                let saved = try await inFolder { path in
                    _ = try await run(devices: devices, regions: regions, seconds: 1, state: path)
                    return try Data(contentsOf: URL(fileURLWithPath: path))
                }
                return {
                    try await inFolder { path in
                        try saved.write(to: URL(fileURLWithPath: path))
                        let report = try await run(devices: devices, regions: regions, seconds: 2, state: path)
                        // Each device's first sample is older than its saved state and refused as out of order;
                        // the second (the saved time) and the third are evaluated.
                        let outOfOrder = report.rejected["outOfOrder"] ?? 0
                        guard report.updates == devices * 2, outOfOrder == devices else {
                            throw BenchmarkFailure(
                                "\(report.updates) updates and \(outOfOrder) out of order, expected \(devices * 2) and "
                                    + "\(devices): the snapshot was not continued")
                        }
                        return Outcome(units: devices, bytes: try snapshotBytes(at: path, devices: devices))
                    }
                }
            })
    }

    private static func run(devices: Int, regions: Int, seconds: Int, state path: String) async throws -> RunReport {
        // The pipeline benchmarks' walk (`seconds + 1` samples a device, at full speed), events counted.
        var simulation = Simulation(
            configuration: PipelineBenchmarks.configuration(devices: devices, regions: regions, seconds: seconds),
            sink: nil)
        simulation.statePath = path
        let report = try await simulation.run()
        guard report.dropped == 0 else { throw BenchmarkFailure("dropped \(report.dropped) events") }
        return report
    }

    /// The size of the snapshot at `path`, after checking that it ends with the count of `devices`.
    private static func snapshotBytes(at path: String, devices: Int) throws -> Int {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        guard String(decoding: bytes.suffix(64), as: UTF8.self).hasSuffix("{\"end\":true,\"devices\":\(devices)}\n")
        else { throw BenchmarkFailure("the snapshot does not end with the count of its \(devices) devices") }
        return bytes.count
    }

    /// Calls `body` with a snapshot path in a new folder, removed afterwards.
    private static func inFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = NSTemporaryDirectory() + "/location-router-bench-state-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try await body(folder + "/state.ndjson")
    }
}
