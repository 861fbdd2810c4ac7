import Foundation
import GeofenceKit
import LocationRouter

/// `location-router run`: builds the scenario, runs the pipeline, prints the summary and writes the report.
struct RunCommand {
    let console: Console
    private(set) var scenario = Scenario()
    private var noEvents = false

    init(arguments: [String], console: Console, workingDirectory: String) throws(CommandError) {
        self.console = console
        var arguments = Arguments(arguments)
        let configPath = try arguments.option("--config")
        let defaultConfig = (workingDirectory as NSString).appendingPathComponent("config.json")
        if let path = configPath ?? (FileManager.default.fileExists(atPath: defaultConfig) ? defaultConfig : nil) {
            let bytes = try Files.read(path)
            do {
                try scenario.apply(configJSON: bytes)
            } catch {
                throw CommandError(.invalidInput, error.in(file: path).description)
            }
        }
        try apply(&arguments)
        let extra = try arguments.remaining()
        guard extra.isEmpty else { throw .usage("Unexpected argument '\(extra[0])'") }
    }

    /// Command-line options override the config file, key by key.
    private mutating func apply(_ arguments: inout Arguments) throws(CommandError) {
        if let source = try arguments.option("--source") {
            if source.hasPrefix("gpx:") { throw .usage("GPX playback is not available in this version") }
            guard let choice = Scenario.source(from: source) else {
                throw .usage("The value '\(source)' is invalid for '--source <kind>' (random-walk, stdin, stdin:ndjson, stdin:csv)")
            }
            scenario.source = choice
        }
        if let regions = try arguments.option("--regions") { scenario.regionsFile = regions }
        if let devices = try arguments.option("--devices") {
            guard let count = Int(devices), (1...100_000_000).contains(count) else {
                throw .usage("The value '\(devices)' is invalid for '--devices <n>' (1...100000000)")
            }
            scenario.walk.devices = count
        }
        if let duration = try arguments.option("--duration") {
            guard let seconds = Double(duration), seconds.isFinite, (0...31_622_400).contains(seconds) else {
                throw .usage("The value '\(duration)' is invalid for '--duration <seconds>' (0...31622400)")
            }
            scenario.walk.duration = seconds
        }
        if let profile = try arguments.option("--profile") {
            guard Scenario.profiles.contains(profile) else {
                throw .usage("The value '\(profile)' is invalid for '--profile <name>' (\(Scenario.profiles.joined(separator: ", ")))")
            }
            scenario.profile = profile
        }
        if let trigger = try arguments.option("--initial-trigger") {
            guard let value = InitialTrigger(rawValue: trigger) else {
                throw .usage("The value '\(trigger)' is invalid for '--initial-trigger <t>' (none, state, enter)")
            }
            scenario.initialTrigger = value
        }
        if let events = try arguments.option("--events") { scenario.events = events }
        if arguments.flag("--no-events") { scenario.events = nil }
        if let report = try arguments.option("--report") { scenario.report = report }
        if let seed = try arguments.option("--seed") {
            guard let value = UInt64(seed) else {
                throw .usage("The value '\(seed)' is invalid for '--seed <n>' (a whole number ≥ 0)")
            }
            scenario.seed = value
        }
        if let pace = try arguments.option("--pace") {
            guard let value = Scenario.pace(from: pace) else {
                throw .usage("The value '\(pace)' is invalid for '--pace <pace>' (max, realtime, or a factor > 0)")
            }
            scenario.pace = value
        }
        if let shards = try arguments.option("--shards") {
            guard let count = Int(shards), (1...1024).contains(count) else {
                throw .usage("The value '\(shards)' is invalid for '--shards <n>' (1...1024)")
            }
            scenario.shards = count
        }
        if let policy = try arguments.option("--on-bad-input") {
            guard policy == "skip" || policy == "fail" else {
                throw .usage("The value '\(policy)' is invalid for '--on-bad-input <p>' (skip, fail)")
            }
            scenario.failOnBadInput = policy == "fail"
        }
        if arguments.flag("--quiet", "-q") { scenario.quiet = true }
    }

    func run() async throws(CommandError) -> ExitCode {
        let configuration = try simulationConfiguration()
        let sink: (any EventSink)?
        switch scenario.events {
        case nil: sink = nil
        case "-": sink = FileDescriptorSink.standardOutput
        case let path?:
            do { sink = try FileDescriptorSink(path: path) } catch {
                throw CommandError(.outputFailed, "\(error)")
            }
        }
        let progress = PipelineProgress()
        let simulation = Simulation(configuration: configuration, sink: sink, progress: progress)
        let showsProgress = !scenario.quiet && console.errIsTerminal
        let progressLine = showsProgress ? ProgressLine(progress: progress, console: console) : nil
        let report: RunReport
        do {
            report = try await simulation.run()
            await progressLine?.stop()
        } catch {
            await progressLine?.stop()
            throw Self.commandError(for: error)
        }

        if !scenario.quiet {
            let table = SummaryTable(report: report, eventsDestination: scenario.events).text
            if scenario.events == "-" { console.err(table) } else { console.out(table) }
        }
        if let path = scenario.report { try Files.write(report.json, to: path) }
        return .success
    }

    private func simulationConfiguration() throws(CommandError) -> SimulationConfiguration {
        var regions: [Region]?
        if let path = scenario.regionsFile {
            let bytes = try Files.read(path)
            do {
                var warnings: [InputError] = []
                regions = try GeoJSONRegionDecoder.decode(bytes, warnings: &warnings)
                for warning in warnings { console.err("warning: \(warning.in(file: path))\n") }
            } catch {
                throw CommandError(.invalidInput, error.in(file: path).description)
            }
        }
        let source: SimulationConfiguration.Source
        switch scenario.source {
        case .randomWalk:
            source = .randomWalk(scenario.walk)
        case .stdin(let format):
            guard regions != nil else {
                throw .usage("A stdin source needs regions: pass '--regions <path>' (a GeoJSON FeatureCollection)")
            }
            let console = console
            let reported = RejectionPrinter(console: console)
            var input = SampleInput.standardInput(format: format, failOnBadInput: scenario.failOnBadInput)
            input.onRejection = { reported.print($0) }
            source = .samples(input)
        }
        return SimulationConfiguration(
            source: source, regions: regions, settings: scenario.settings, profile: scenario.profile,
            seed: scenario.seed, shards: scenario.shards ?? SimulationConfiguration.defaultShardCount,
            batchSize: scenario.batchSize, creditsPerShard: scenario.credits, pace: scenario.pace)
    }

    private static func commandError(for error: any Error) -> CommandError {
        switch error {
        case let error as BadInputError: CommandError(.invalidInput, error.description)
        case let error as InputReadError: CommandError(.inputMissing, error.description)
        case let error as SinkError: CommandError(.outputFailed, error.description)
        case let error as CommandError: error
        default: CommandError(.invalidInput, "\(error)")
        }
    }
}
