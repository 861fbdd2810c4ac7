import Foundation
import GeofenceKit

/// Parses the options, runs the selected benchmarks and prints the results.
enum BenchmarkCommand {
    static let usageLine =
        "location-router-bench [--scale] [--devices <n,…>] [--regions <n,…>] [--updates <n>] [--runs <n>] "
        + "[--filter <name>] [--json] [--check <baseline.json> [--tolerance <t>]] [--write-files <dir>] "
        + "[--catalog [--catalog-size <n>]]"

    static let help = """
        OVERVIEW: The LocationRouter benchmark suite.

        USAGE: \(usageLine)

        MODES:
          (default)         Every stage alone and the whole pipeline (full speed, paced, slow sink) at
                            --devices × --regions (10000 × 20), with 120 simulated seconds (the full-speed
                            pipeline 3,000, as the CLI's measured run), and the files workload
                            (filesRegions, filesCSV, filesNDJSON; see --write-files): about a minute and a half.
          --scale           The scale matrix: evaluationLoop, evaluationLoopDeviceMajor and pipeline at every
                            point of --devices × --regions (default 1000,10000,100000,1000000 × 1,5,20), each
                            run doing about --updates updates; prints a scaling table (with --json: the
                            JSON on standard output, the table on standard error).
          --write-files <dir>
                            Writes the files workload (regions.geojson: 200,000 circles bound to 10,000
                            devices; samples.csv and samples.ndjson: 1,000,000 full-precision samples over
                            100 time steps; generated from a fixed seed; header.csv and empty.geojson to
                            time the regions and the samples apart) into <dir> and prints how to time the
                            CLI on it and the events it must give. The filesRegions, filesCSV and
                            filesNDJSON benchmarks run the same workload in process.
          --catalog         Shared catalogs: the spatial index of --catalog-size circles (build, 20 nearest,
                            containment) and the pipeline with --devices (default 100000) choosing their
                            nearest 20 (with and without coverage) against 20 regions per device; 60 s walks.
          --check <file>    Runs the benchmarks named in a baseline written by --json (with its configuration)
                            and compares each judged metric's p50: exit 1 on a regression, 0 otherwise.
                            CPU-bound speed is judged in CPU time relative to a calibration loop measured
                            around each run (cpuRelative), which a busy machine does not move; a benchmark of
                            several threads also by wall clock (throughputRelative), unless other processes
                            kept more than 0.25 cores busy (othersCPU). Memory: the benchmark's own footprint
                            (memoryFootprint). Record a baseline with --json --runs 10 on a quiet machine.

        OPTIONS:
          --runs <n>        Measured runs per benchmark, after one warm-up (default: 5; with --check, the
                            baseline's).
          --devices <n,…>   Devices (default suite: one number; a list implies --scale). 1k and 1M are accepted.
          --regions <n,…>   Circles per device (default suite: one number; a list implies --scale).
          --updates <n>     Updates per run at each scale-matrix point (default: 3M).
          --filter <name>   Run only the benchmarks whose name contains <name> (none: an error that
                            lists the names, exit 64).
          --json            Print JSON instead of a table; usable as a --check baseline as it is.
          --catalog-size <n> With --catalog: circles in the catalog (default: 1M).
          --tolerance <t>   With --check: the allowed relative change, 0 < t < 1 (default: 0.25); a metric
                            whose baseline runs spread by s gets 3·s when wider (up to 0.6).
          -h, --help        Show help information.

        """

    static func run(_ arguments: [String]) async -> Int32 {
        Memory.fixAllocatorThreshold()
        var configuration = SuiteConfiguration()
        var runs: Int?
        var devices: [Int]?
        var regions: [Int]?
        var scale = false
        var filter: String?
        var json = false
        var checkPath: String?
        var catalogSize: Int?
        var tolerance = 0.25
        var i = 0
        func value() -> String? {
            i += 1
            return i < arguments.count ? arguments[i] : nil
        }
        while i < arguments.count {
            let option = arguments[i]
            switch option {
            case "-h", "--help":
                print(help, terminator: "")
                return 0
            case "--json": json = true
            case "--scale": scale = true
            case "--catalog": catalogSize = catalogSize ?? 1_000_000
            case "--catalog-size":
                guard let n = value().flatMap(count), n > 0, n < CatalogIndex.maximumCount else {
                    return usage("--catalog-size needs a number from 1 to \(CatalogIndex.maximumCount - 1)")
                }
                catalogSize = n
            case "--runs":
                guard let n = value().flatMap(count), n > 0 else { return usage("--runs needs a number > 0") }
                runs = n
            case "--updates":
                guard let n = value().flatMap(count), n > 0 else { return usage("--updates needs a number > 0") }
                configuration.updates = n
            case "--devices":
                guard let list = value().flatMap(counts), list.allSatisfy({ $0 > 0 && $0 <= Int(Int32.max) }) else {
                    return usage("--devices needs numbers > 0, separated by commas")
                }
                devices = list
            case "--regions":
                guard let list = value().flatMap(counts), list.allSatisfy({ $0 >= 0 && $0 <= 10_000 }) else {
                    return usage("--regions needs numbers from 0 to 10000, separated by commas")
                }
                regions = list
            case "--filter":
                guard let text = value() else { return usage("--filter needs a name") }
                filter = text
            case "--write-files":
                guard let directory = value() else { return usage("--write-files needs a directory") }
                return writeFiles(to: directory)
            case "--check":
                guard let path = value() else { return usage("--check needs a baseline file") }
                checkPath = path
            case "--tolerance":
                guard let text = value(), let t = Double(text), t > 0, t < 1 else {
                    return usage("--tolerance needs a number between 0 and 1, such as 0.25")
                }
                tolerance = t
            default:
                return usage("Unknown option '\(option)'")
            }
            i += 1
        }
        if let checkPath {
            guard devices == nil, regions == nil, !scale, !json else {
                return usage(
                    "--check takes its benchmarks and configuration from the baseline; "
                        + "only --runs, --filter and --tolerance go with it")
            }
            return await Check.run(path: checkPath, tolerance: tolerance, runs: runs, filter: filter)
        }
        if tolerance != 0.25 { return usage("--tolerance goes with --check") }
        if (devices?.count ?? 1) > 1 || (regions?.count ?? 1) > 1 { scale = true }
        configuration.runs = runs ?? configuration.runs

        let benchmarks: [Benchmark]
        if let catalogSize {
            benchmarks = CatalogBenchmarks.all(size: catalogSize, devices: devices?.first ?? 100_000, seconds: 60)
        } else if scale {
            let points = ScaleMatrix.points(
                devices: devices ?? ScaleMatrix.defaultDevices, regions: regions ?? ScaleMatrix.defaultRegions)
            benchmarks = points.map { ScaleMatrix.benchmark($0, updates: configuration.updates) }
        } else {
            configuration.devices = devices?.first ?? configuration.devices
            configuration.regions = regions?.first ?? configuration.regions
            benchmarks = Workloads.all(configuration)
        }
        let chosen = benchmarks.filter { filter.map($0.name.contains) ?? true }
        if chosen.isEmpty, let filter {
            return usage(Check.nothingMatches(filter, in: "this suite", names: benchmarks.map(\.name)))
        }
        var results: [BenchmarkResult] = []
        for benchmark in chosen {
            Check.stderr("running \(benchmark.name): \(benchmark.summary)")
            do {
                results.append(try await measure(benchmark, runs: configuration.runs))
            } catch {
                Check.stderr("Error: \(benchmark.name): \(error)")
                return 1
            }
        }
        if json {
            print(Report.json(results, configuration: configuration), terminator: "")
            if scale { FileHandle.standardError.write(Data(ScaleMatrix.table(results).utf8)) }
        } else {
            print(scale ? ScaleMatrix.table(results) : Report.table(results), terminator: "")
        }
        return 0
    }

    /// A count: digits (underscores allowed), optionally with a `k` or `M` suffix.
    private static func count(_ text: String) -> Int? {
        var digits = text.replacingOccurrences(of: "_", with: "")
        var factor = 1
        if digits.hasSuffix("k") || digits.hasSuffix("K") {
            factor = 1_000
            digits.removeLast()
        } else if digits.hasSuffix("M") || digits.hasSuffix("m") {
            factor = 1_000_000
            digits.removeLast()
        }
        guard let value = Int(digits), value >= 0 else { return nil }
        return value.multipliedReportingOverflow(by: factor).overflow ? nil : value * factor
    }

    private static func counts(_ text: String) -> [Int]? {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { count(String($0)) }
        guard !items.isEmpty, items.allSatisfy({ $0 != nil }) else { return nil }
        return items.compactMap { $0 }
    }

    private static func writeFiles(to directory: String) -> Int32 {
        do {
            try FilesWorkload.shared.write(to: directory)
        } catch {
            Check.stderr("Error: cannot write the files workload to \(directory): \(error)")
            return 74
        }
        let cli = siblingCLI
        print(
            """
            Wrote \(FilesWorkload.fileNames.joined(separator: ", ")) into \(directory). From there, time the whole \
            process (CSV, then the same samples as NDJSON), the regions alone, and the samples alone:
              cd \(directory)
              /usr/bin/time \(cli) run --source stdin:csv --regions regions.geojson --events events.ndjson --no-report < samples.csv
              /usr/bin/time \(cli) run --source stdin:ndjson --regions regions.geojson --events events.ndjson --no-report < samples.ndjson
              /usr/bin/time \(cli) run --source stdin:csv --regions regions.geojson --no-events --no-report < header.csv
              /usr/bin/time \(cli) run --source stdin:csv --regions empty.geojson --no-events --no-report < samples.csv
            The exact profile gives \(FilesWorkload.expectedEnters) enters and \(FilesWorkload.expectedExits) exits; \
            `sort events.ndjson | md5sum` compares two builds' events.
            """)
        return 0
    }

    /// The CLI built beside this benchmark (`.build/release/location-router` for `swift run -c release`), by its
    /// full path; its bare name when there is none.
    private static var siblingCLI: String {
        guard let folder = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
            return "location-router"
        }
        let path = folder.appendingPathComponent("location-router").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : "location-router"
    }

    private static func usage(_ message: String) -> Int32 {
        Check.stderr("Error: \(message)\nUsage: \(usageLine)")
        return 64
    }
}
