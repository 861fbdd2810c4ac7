import Foundation

/// A committed baseline: the configuration it was measured with and each benchmark's p50 and p90 per metric.
struct Baseline {
    struct Entry {
        var name: String
        var runs: Int
        /// p50 by metric name.
        var p50: [String: Double]
        /// p90 by metric name: with p50, the spread of the baseline's own runs.
        var p90: [String: Double] = [:]
    }

    var configuration: SuiteConfiguration
    /// The cores of the machine that measured the baseline (the pipeline runs one shard per core).
    var cores: Int?
    /// The processor of that machine (``Processor/name``); nil in a baseline recorded before it was written.
    var processor: String?
    var entries: [Entry]

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads the output of `location-router-bench --json`.
    static func load(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "\(path): cannot read the file")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw LoadError(description: "\(path): not JSON (\(error.localizedDescription))")
        }
        guard let object = root as? [String: Any], let benchmarks = object["benchmarks"] as? [Any] else {
            throw LoadError(description: "\(path): expected an object with \"benchmarks\", as --json writes it")
        }
        var configuration = SuiteConfiguration()
        var cores: Int?
        var processor: String?
        if let settings = object["configuration"] as? [String: Any] {
            func integer(_ key: String) -> Int? { number(settings[key]).map { Int($0) } }
            configuration.devices = integer("devices") ?? configuration.devices
            configuration.regions = integer("regions") ?? configuration.regions
            configuration.seconds = integer("seconds") ?? configuration.seconds
            configuration.pipelineSeconds = integer("pipelineSeconds") ?? configuration.pipelineSeconds
            configuration.updates = integer("updates") ?? configuration.updates
            configuration.runs = integer("runs") ?? configuration.runs
            cores = integer("cores")
            processor = settings["processor"] as? String
        }
        var entries: [Entry] = []
        for (index, item) in benchmarks.enumerated() {
            guard let benchmark = item as? [String: Any], let name = benchmark["name"] as? String else {
                throw LoadError(description: "\(path): benchmarks[\(index)]: expected an object with a \"name\"")
            }
            var p50: [String: Double] = [:]
            var p90: [String: Double] = [:]
            for (key, value) in benchmark {
                guard let metric = value as? [String: Any] else { continue }
                if let median = number(metric["p50"]) { p50[key] = median }
                if let high = number(metric["p90"]) { p90[key] = high }
            }
            let runs = number(benchmark["runs"]).map { Int($0) } ?? configuration.runs
            entries.append(Entry(name: name, runs: runs, p50: p50, p90: p90))
        }
        return Baseline(configuration: configuration, cores: cores, processor: processor, entries: entries)
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Double: value
        case let value as Int: Double(value)
        case let value as NSNumber: value.doubleValue
        default: nil
        }
    }
}
