import Foundation
import GeofenceFormats
import GeofenceKit
import LocationRouter

/// The stages of the files workload (``FilesWorkload``): its GeoJSON regions decoded alone, and its samples read
/// from a file descriptor (as `--source stdin:csv` reads standard input) through the whole pipeline, exactly.
///
/// The pipeline runs fail unless the events are exactly ``FilesWorkload/expectedEnters`` enters and
/// ``FilesWorkload/expectedExits`` exits.
enum FilesBenchmarks {
    static let regions = Benchmark(
        name: "filesRegions",
        summary: "GeoJSONRegionDecoder over the files workload's 200,000 circles (in memory; read ahead on every core)",
        unit: "regions",
        prepare: {
            let bytes = FilesWorkload.shared.geoJSON
            return {
                var count = 0
                var warnings: [InputError] = []
                try bytes.withUnsafeBufferPointer { buffer throws(InputError) in
                    try GeoJSONRegionDecoder.forEachRegion(in: buffer, warnings: &warnings) { _ in count += 1 }
                }
                let expected = FilesWorkload.devices * FilesWorkload.circlesPerDevice
                guard count == expected else { throw BenchmarkFailure("\(count) regions decoded, not \(expected)") }
                return Outcome(units: count, bytes: bytes.count)
            }
        },
        shared: { _ = FilesWorkload.shared })

    /// The regions as the CLI loads them: decoded into a ``RegionCatalog/Builder``, which files each region for
    /// the devices as it arrives.
    static let regionCatalog = Benchmark(
        name: "filesRegionCatalog",
        summary: "the files workload's 200,000 circles decoded into a RegionCatalog, as the CLI loads them",
        unit: "regions",
        prepare: {
            let bytes = FilesWorkload.shared.geoJSON
            return {
                var warnings: [InputError] = []
                var builder = RegionCatalog.Builder(expected: bytes.count / 100)
                try bytes.withUnsafeBufferPointer { buffer throws(InputError) in
                    try GeoJSONRegionDecoder.forEachRegion(in: buffer, warnings: &warnings) { builder.append($0) }
                }
                let catalog = builder.build()
                let expected = FilesWorkload.devices * FilesWorkload.circlesPerDevice
                guard catalog.identifiers.count == expected, catalog.regions(forDevice: "device-0").count == 20 else {
                    throw BenchmarkFailure("\(catalog.identifiers.count) regions filed, not \(expected) (20 a device)")
                }
                return Outcome(units: expected, bytes: bytes.count)
            }
        },
        shared: { _ = FilesWorkload.shared })

    static let csv = pipeline(name: "filesCSV", format: .csv)
    static let ndjson = pipeline(name: "filesNDJSON", format: .ndjson)
    /// The samples alone into the pipeline: the same lines with no regions, so what is measured is reading,
    /// splitting, decoding and routing them (`run --source stdin:csv --regions` an empty FeatureCollection).
    static let csvIntake = pipeline(name: "filesCSVIntake", format: .csv, withRegions: false)
    static let ndjsonIntake = pipeline(name: "filesNDJSONIntake", format: .ndjson, withRegions: false)

    /// The read end of a pipe that a thread of its own fills with `bytes` and then closes, as a shell pipes a
    /// file into standard input.
    static func feed(_ bytes: [UInt8]) throws -> Int32 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BenchmarkFailure("cannot create a pipe") }
        let writeEnd = ends[1]
        let writer = Thread {
            bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var offset = 0
                while offset < raw.count {
                    let written = write(writeEnd, base + offset, raw.count - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
            }
            close(writeEnd)
        }
        writer.start()
        return ends[0]
    }

    /// The samples read from a pipe (as from standard input) into the pipeline with the workload's regions, events counted.
    static func pipeline(name: String, format: SampleFormat, withRegions: Bool = true) -> Benchmark {
        Benchmark(
            name: name,
            summary: "whole pipeline from \(format == .csv ? "CSV" : "NDJSON") on a pipe: the files workload"
                + (withRegions
                    ? " (1,000,000 lines, 200,000 circles bound to 10,000 devices), exact"
                    : "'s 1,000,000 lines without regions (the samples' intake)"),
            unit: "lines",
            prepare: {
                let workload = FilesWorkload.shared
                let regions = withRegions ? try GeoJSONRegionDecoder.decode(workload.geoJSON) : []
                let (expectedEnters, expectedExits) =
                    withRegions ? (FilesWorkload.expectedEnters, FilesWorkload.expectedExits) : (0, 0)
                let bytes = format == .csv ? workload.csv : workload.ndjson
                return {
                    let descriptor = try feed(bytes)
                    defer { close(descriptor) }
                    let input = SampleInput(descriptor: descriptor, name: name, format: format)
                    let configuration = SimulationConfiguration(
                        source: .samples(input), regions: regions, seed: Workloads.seed)
                    let report = try await Simulation(configuration: configuration, sink: nil).run()
                    let enters = report.events["enter"] ?? 0
                    let exits = report.events["exit"] ?? 0
                    guard enters == expectedEnters, exits == expectedExits,
                        report.dropped == 0, report.updates == FilesWorkload.devices * FilesWorkload.steps
                    else {
                        throw BenchmarkFailure(
                            "\(report.updates) updates, \(enters) enters and \(exits) exits; expected "
                                + "\(FilesWorkload.devices * FilesWorkload.steps) updates, "
                                + "\(expectedEnters) enters and \(expectedExits) exits")
                    }
                    return Outcome(units: report.updates, bytes: bytes.count)
                }
            },
            maxRuns: 5,
            // The pipeline's shards and the parallel decoder use every core.
            threads: ProcessInfo.processInfo.activeProcessorCount,
            shared: { _ = FilesWorkload.shared })
    }
}
