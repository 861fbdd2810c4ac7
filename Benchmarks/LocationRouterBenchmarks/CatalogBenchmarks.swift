import Foundation
import GeofenceKit
import LocationRouter

/// Shared catalogs (`--catalog`): the spatial index alone (build, nearest, containment), and the whole pipeline
/// with devices choosing their nearest catalog regions, against the same devices with 20 regions of their own.
///
/// The catalog spreads `size` circles of 25–150 m (stores, stops, chargers) over the walk's area, 100 km around
/// Taipei: about 32 regions per km² for a million, so a device stands in about one region at a time.
enum CatalogBenchmarks {
    static let areaRadius = 100_000.0
    static let radius = 25.0...150.0
    static let centre = Coordinate(unchecked: 25.0330, 121.5654)

    static func all(size: Int, devices: Int, seconds: Int) -> [Benchmark] {
        [
            build(size: size), nearest(size: size), nearestBatch(size: size), containing(size: size),
            pipeline(name: "catalogBaseline", devices: devices, seconds: seconds, size: nil),
            pipeline(name: "catalogNearest", devices: devices, seconds: seconds, size: size),
            pipeline(name: "catalogCoverage", devices: devices, seconds: seconds, size: size, coverage: true),
        ]
    }

    static func shapes(_ size: Int) -> [(region: Int32, shape: CatalogIndex.Shape)] {
        var rng = SplitMix64(seed: Workloads.seed, stream: 0, purpose: 77)
        return (0..<size).map { k in
            let distance = areaRadius * rng.unit().squareRoot(), bearing = rng.unit() * 360
            let point = Geodesic.destination(
                latitude: centre.latitude, longitude: centre.longitude, bearing: bearing, distance: distance)
            return (Int32(k), .circle(latitude: point.latitude, longitude: point.longitude, radius: rng.uniform(radius)))
        }
    }

    /// Query points uniform over the area.
    static func points(_ count: Int) -> [(latitude: Double, longitude: Double)] {
        var rng = SplitMix64(seed: Workloads.seed, stream: 1, purpose: 77)
        return (0..<count).map { _ in
            Geodesic.destination(
                latitude: centre.latitude, longitude: centre.longitude, bearing: rng.unit() * 360,
                distance: areaRadius * rng.unit().squareRoot())
        }
    }

    static func build(size: Int) -> Benchmark {
        Benchmark(
            name: "catalogIndexBuild", summary: "both cores: CatalogIndex of \(size) circles (sort, boxes)", unit: "regions",
            prepare: {
                let shapes = shapes(size)
                return {
                    let before = Memory.resident()
                    let index = CatalogIndex(shapes)
                    let grown = Memory.resident() - before
                    return Outcome(units: index.count, metrics: [
                        "bytesPerRegion": Double(index.memoryBytes) / Double(index.count),
                        "residentPerRegion": Double(max(0, grown)) / Double(index.count),
                    ])
                }
            }, maxRuns: 5)
    }

    static func nearest(size: Int) -> Benchmark {
        Benchmark(
            name: "catalogNearest20", summary: "one core: the 20 nearest of \(size) circles, at 100,000 points",
            unit: "queries",
            prepare: {
                let index = CatalogIndex(shapes(size))
                let points = points(100_000)
                return {
                    var result = CatalogIndex.NearestRegions()
                    var found = 0
                    for point in points {
                        index.nearest(latitude: point.latitude, longitude: point.longitude, count: 20, into: &result)
                        found += result.regions.count
                    }
                    guard found == 20 * points.count else { throw BenchmarkFailure("found \(found) regions") }
                    return Outcome(units: points.count)
                }
            })
    }

    /// The same queries as ``nearest(size:)`` answered as one batch (how a random walk's first choices are):
    /// in curve order, on both cores.
    static func nearestBatch(size: Int) -> Benchmark {
        Benchmark(
            name: "catalogNearest20Batch", summary: "both cores: the 20 nearest of \(size) circles, at 100,000 points "
                + "in one batch (curve order)",
            unit: "queries",
            prepare: {
                let index = CatalogIndex(shapes(size))
                let points = points(100_000)
                return {
                    let batch = index.nearest(at: points, count: 20)
                    let found = (0..<batch.count).reduce(0) { $0 + batch.regions(ofPoint: $1).count }
                    guard found == 20 * points.count else { throw BenchmarkFailure("found \(found) regions") }
                    return Outcome(units: points.count)
                }
            })
    }

    static func containing(size: Int) -> Benchmark {
        Benchmark(
            name: "catalogContaining", summary: "one core: the regions containing a point, of \(size) circles, at "
                + "100,000 points",
            unit: "queries",
            prepare: {
                let index = CatalogIndex(shapes(size))
                let points = points(100_000)
                return {
                    var found: [Int32] = [], stack: [(level: Int32, box: Int32)] = []
                    for point in points {
                        found.removeAll(keepingCapacity: true)
                        index.regionsContaining(latitude: point.latitude, longitude: point.longitude, into: &found, stack: &stack)
                    }
                    return Outcome(units: points.count)
                }
            })
    }

    /// The pipeline over the catalog's area: `size` nil for 20 regions per device, else a generated catalog of
    /// that size with `nearest` (20 slots), optionally with coverage.
    static func pipeline(name: String, devices: Int, seconds: Int, size: Int?, coverage: Bool = false) -> Benchmark {
        var walk = RandomWalkConfiguration(
            devices: devices, center: centre, areaRadius: areaRadius, duration: Double(seconds),
            regions: GeneratedRegionsConfiguration(perDevice: 20))
        walk.catalog = size.map { GeneratedCatalogConfiguration(count: $0, radius: radius) }
        var configuration = SimulationConfiguration(source: .randomWalk(walk), seed: Workloads.seed)
        if size != nil { configuration.selection = SelectionSettings(strategy: .nearest) }
        configuration.coverage = coverage
        let shape = size.map { "catalog of \($0), nearest 20" + (coverage ? " + coverage" : "") } ?? "20 regions per device"
        let run = configuration
        return Benchmark(
            name: name,
            summary: "whole pipeline: \(devices) devices, \(shape), \(seconds + 1) samples per device, events counted "
                + "(the catalog's index is built inside the run)",
            unit: "updates",
            prepare: {
                {
                    let report = try await PipelineBenchmarks.run(run, sink: nil)
                    if size != nil, report.failures["tooManyRegions"] != 0 {
                        throw BenchmarkFailure("\(report.failures["tooManyRegions"] ?? 0) failed registrations")
                    }
                    var metrics: [String: Double] = [:]
                    if let coverage = report.coverage { metrics["coverageRatio"] = coverage.ratio }
                    return Outcome(units: report.updates, metrics: metrics)
                }
            }, warmup: false, maxRuns: 3)
    }
}
