import Foundation

/// Parses the options, runs the selected benchmarks and prints the results.
enum BenchmarkCommand {
    static let help = """
        OVERVIEW: The LocationRouter benchmark suite.

        USAGE: location-router-bench [--runs <n>] [--devices <n>] [--filter <name>] [--json]

        OPTIONS:
          --runs <n>        Measured runs per benchmark, after one warm-up (default: 5).
          --devices <n>     Devices in every workload (default: 10000).
          --filter <name>   Run only the benchmarks whose name contains <name>.
          --json            Print JSON instead of a table.
          -h, --help        Show help information.

        """

    static func run(_ arguments: [String]) async -> Int32 {
        var runs = 5
        var devices = 10_000
        var filter: String?
        var json = false
        var i = 0
        func value() -> String? {
            i += 1
            return i < arguments.count ? arguments[i] : nil
        }
        while i < arguments.count {
            switch arguments[i] {
            case "-h", "--help":
                print(help, terminator: "")
                return 0
            case "--json": json = true
            case "--runs":
                guard let text = value(), let n = Int(text), n > 0 else { return usage("--runs needs a number > 0") }
                runs = n
            case "--devices":
                guard let text = value(), let n = Int(text), n > 0 else { return usage("--devices needs a number > 0") }
                devices = n
            case "--filter":
                guard let text = value() else { return usage("--filter needs a name") }
                filter = text
            default:
                return usage("Unknown option '\(arguments[i])'")
            }
            i += 1
        }
        var results: [BenchmarkResult] = []
        for benchmark in Workloads.all(devices: devices) where filter.map(benchmark.name.contains) ?? true {
            if !json { FileHandle.standardError.write(Data("running \(benchmark.name): \(benchmark.summary)\n".utf8)) }
            do {
                results.append(try await measure(benchmark, runs: runs))
            } catch {
                FileHandle.standardError.write(Data("Error: \(benchmark.name): \(error)\n".utf8))
                return 1
            }
        }
        print(json ? Report.json(results) : Report.table(results), terminator: "")
        return 0
    }

    private static func usage(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("Error: \(message)\nUsage: location-router-bench [--runs <n>] [--devices <n>] [--filter <name>] [--json]\n".utf8))
        return 64
    }
}
