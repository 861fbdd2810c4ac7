import Foundation
import GeofenceKit
import LocationRouter

/// Turning the scenario into what the pipeline runs: its configuration (reading regions and GPX files), the
/// webhook sink, and the exit status of a failed run.
extension RunCommand {
    func makeWebhook() throws(CommandError) -> WebhookSink? {
        guard let url = scenario.webhookURL else { return nil }
        let settings = scenario.webhook
        do {
            var backoff = WebhookBackoff()
            backoff.seed = scenario.seed
            let configuration = try WebhookConfiguration(
                url: URL(string: url) ?? URL(fileURLWithPath: url), batchSize: settings.batchSize, linger: settings.linger,
                concurrency: settings.concurrency, timeout: settings.timeout, maxAttempts: settings.maxAttempts,
                backoff: backoff, deadLetterPath: settings.deadLetter, gracePeriod: settings.gracePeriod)
            return WebhookSink(configuration: configuration)
        } catch {
            throw .usage("The value '\(url)' is invalid for '--webhook <url>': \(error)")
        }
    }

    func simulationConfiguration() throws(CommandError) -> SimulationConfiguration {
        var samples: SampleInput?
        if case .stdin(let format) = scenario.source {
            guard scenario.regionsFile != nil else {
                throw .usage("A stdin source needs regions: pass '--regions <path>' (a GeoJSON FeatureCollection)")
            }
            var input = SampleInput.standardInput(format: format, failOnBadInput: scenario.failOnBadInput)
            // Standard input is read and decoded on the other core while the regions load, unless a copy of it
            // is kept to replay (the truth, a comparison of profiles), which must see it from its first byte.
            if !scenario.truth.needsTruth, scenario.compareProfiles.isEmpty { input.startReading() }
            samples = input
        }
        var catalog: RegionCatalog?
        if let path = scenario.regionsFile {
            var warnings: [InputError] = []
            let decoded: RegionCatalog
            do {
                decoded = try Files.regionCatalog(path, warnings: &warnings)
            } catch where error.code == .inputMissing {
                // Named by its option and key: a path from a config file in another folder is read from the working
                // directory, which the bare "no such file" did not say.
                let relative =
                    path.hasPrefix("/")
                    ? "" : " (read from the working directory, \(FileManager.default.currentDirectoryPath))"
                throw CommandError(error.code, "--regions (regions.file) \(error.message)\(relative)")
            }
            Files.printRegionWarnings(warnings, of: path, to: console)
            catalog = decoded
        }
        for warning in scenario.catalogWarnings(regionFile: catalog) + scenario.idleOptionWarnings {
            console.err("warning: \(warning)\n")
        }
        let source: SimulationConfiguration.Source
        // Regions each device will monitor, for the memory estimate.
        let slots = scenario.settings.slotLimit
        let monitored = min(slots, catalog?.regions.count ?? scenario.walk.regions.perDevice)
        switch scenario.source {
        case .randomWalk:
            try Self.checkMemory(devices: scenario.partition.deviceCount(of: scenario.walk.devices), regions: monitored)
            source = .randomWalk(scenario.walk)
        case .route(let text):
            try Self.checkMemory(devices: scenario.partition.deviceCount(of: scenario.playback.devices), regions: monitored)
            do {
                source = .playback([try Trace.route(text)], scenario.playback)
            } catch {
                throw .usage("The value 'route:\(text)' is invalid for '--source <kind>': \(error)")
            }
        case .gpx(let paths):
            try Self.checkMemory(devices: scenario.partition.deviceCount(of: scenario.playback.devices), regions: monitored)
            source = .playback(try GPXFiles.traces(paths: paths, console: console), scenario.playback)
        case .stdin:
            let console = console
            let reported = RejectionPrinter(console: console)
            guard var input = samples else { preconditionFailure("a stdin source's input is made above") }
            input.maxDevices = min(input.maxDevices, MemoryBudget.maxDevices(regions: monitored))
            input.onRejection = { reported.print($0) }
            source = .samples(input)
        }
        var configuration = SimulationConfiguration(
            source: source, settings: scenario.settings, profile: scenario.profile,
            seed: scenario.seed, shards: scenario.shards ?? SimulationConfiguration.defaultShardCount,
            batchSize: scenario.batchSize, creditsPerShard: scenario.credits, pace: scenario.pace,
            filters: scenario.filters)
        configuration.regionCatalog = catalog
        configuration.partition = scenario.partition
        configuration.selection = scenario.selection
        configuration.coverage = scenario.coverage
        // Without a report or its page, nothing draws the map or its sampled tracks.
        if !writesReport {
            configuration.sampledTracks = 0
            configuration.recordsPage = false
        }
        return configuration
    }

    static func commandError(for error: any Error) -> CommandError {
        switch error {
        case let error as BadInputError: CommandError(.invalidInput, error.description)
        case let error as InputReadError: CommandError(.inputMissing, error.description)
        case let error as SinkError: CommandError(.outputFailed, error.description)
        case let error as InputError: CommandError(.invalidInput, error.description)
        case let error as CommandError: error
        default: CommandError(.invalidInput, "\(error)")
        }
    }
}
