import Foundation
import GeofenceKit
import LocationRouter

/// `location-router run`: builds the scenario, runs the pipeline, prints the summary and writes the report.
struct RunCommand {
    let console: Console
    private(set) var scenario = Scenario()
    private var noEvents = false
    /// `--html PATH`: the report's page.
    private(set) var htmlPath: String?

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
        htmlPath = try arguments.option("--html")
        try apply(&arguments)
        let extra = try arguments.remaining()
        guard extra.isEmpty else { throw .usage("Unexpected argument '\(extra[0])'") }
    }

    /// Command-line options override the config file, key by key.
    private mutating func apply(_ arguments: inout Arguments) throws(CommandError) {
        if let source = try arguments.option("--source") {
            guard let choice = Scenario.source(from: source) else {
                throw .usage("The value '\(source)' is invalid for '--source <kind>' (\(Scenario.sourceKinds))")
            }
            scenario.source = choice
        }
        if let speed = try arguments.number("--speed", "m/s", in: 0.001...1_000) { scenario.playbackSpeed = speed }
        if let distance = try arguments.number("--sample-distance", "metres", in: 0.001...1_000_000) {
            scenario.sampleDistance = distance
        }
        if let interval = try arguments.number("--interval", "seconds", in: 0.001...86_400) {
            scenario.walk.interval = interval
        }
        if let stagger = try arguments.number("--stagger", "seconds", in: 0...31_622_400) { scenario.stagger = stagger }
        if let jitter = try arguments.number("--time-jitter", "seconds", in: 0...31_622_400) {
            scenario.timeJitter = jitter
        }
        if let jitter = try arguments.number("--position-jitter", "metres", in: 0...1_000_000) {
            scenario.positionJitter = jitter
        }
        if let distance = try arguments.number("--distance-filter", "metres", in: 0.001...1_000_000) {
            scenario.filters.distanceFilter = distance
        }
        if arguments.flag("--significant-change") {
            scenario.filters.significantChange = scenario.filters.significantChange ?? .init()
        }
        if let accuracy = try arguments.number("--accuracy", "metres", in: 0.001...100_000) {
            scenario.filters.noiseAccuracy = accuracy
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
            guard let value = InitialTriggers(text: trigger) else {
                throw .usage("The value '\(trigger)' is invalid for '--initial-trigger <t>' (none, or state, enter, dwell joined by commas)")
            }
            scenario.monitor.initialTriggers = value
        }
        if let buffer = try arguments.number("--buffer", "metres", in: 0...100_000) {
            scenario.monitor.bufferDistance = buffer
        }
        if let confirmation = try arguments.number("--confirmation", "seconds", in: 0...86_400) {
            scenario.monitor.confirmationTime = confirmation
        }
        if let delay = try arguments.number("--loitering-delay", "seconds", in: 0...31_622_400) {
            scenario.monitor.loiteringDelay = delay
        }
        if let shares = try arguments.option("--authorization") {
            guard let mix = Self.authorization(shares) else {
                throw .usage("The value '\(shares)' is invalid for '--authorization <shares>' (e.g. always=0.8,whenInUse=0.15,denied=0.05)")
            }
            scenario.monitor.authorization = mix
        }
        if let list = try arguments.option("--compare-profiles") {
            let profiles = list.split(separator: ",").map { MonitoringProfile(rawValue: String($0)) }
            guard !profiles.isEmpty, profiles.allSatisfy({ $0 != nil }) else {
                throw .usage("The value '\(list)' is invalid for '--compare-profiles <list>' (profiles from \(Scenario.profiles.joined(separator: ", ")), joined by commas)")
            }
            scenario.compareProfiles = profiles.compactMap { $0 }
        }
        if let events = try arguments.option("--events") { scenario.events = events }
        if arguments.flag("--no-events") { scenario.events = nil }
        if let report = try arguments.option("--report") { scenario.report = report }
        if arguments.flag("--no-report") { scenario.report = nil }
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
        if let url = try arguments.option("--webhook") {
            do {
                _ = try WebhookConfiguration(url: url)
            } catch {
                throw .usage("The value '\(url)' is invalid for '--webhook <url>': \(error)")
            }
            scenario.webhookURL = url
        }
        if let path = try arguments.option("--dead-letter") { scenario.webhook.deadLetter = path }
        if let path = try arguments.option("--state") { scenario.statePath = path }
        if let interval = try arguments.number("--snapshot-interval", "seconds", in: 0...86_400) {
            scenario.snapshotInterval = interval
        }
        if let timeout = try arguments.number("--drain-timeout", "seconds", in: 0.1...86_400) {
            scenario.drainTimeout = timeout
        }
        let expressions = try arguments.values("--threshold")
        if !expressions.isEmpty {
            scenario.thresholds = []
            for text in expressions {
                do {
                    scenario.thresholds.append(try Threshold(parsing: text))
                } catch {
                    throw .usage("The value '\(text)' is invalid for '--threshold <expr>': \(error.message)")
                }
            }
        }
        if arguments.flag("--quiet", "-q") { scenario.quiet = true }
        try scenario.applyTruthOptions(&arguments)
        if let text = try arguments.option("--partition") {
            guard let partition = Partition(parsing: text) else {
                throw .usage("The value '\(text)' is invalid for '--partition <I/N>' (\(Scenario.partitionRule))")
            }
            scenario.partition = partition
        }
    }

    /// `always=0.8,whenInUse=0.15,denied=0.05` (absent `always` is the rest).
    private static func authorization(_ text: String) -> AuthorizationMix? {
        var mix = AuthorizationMix(always: -1, whenInUse: 0, denied: 0)
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let share = Double(parts[1]), share.isFinite, (0...1).contains(share) else { return nil }
            switch parts[0] {
            case "always": mix.always = share
            case "whenInUse": mix.whenInUse = share
            case "denied": mix.denied = share
            default: return nil
            }
        }
        if mix.always < 0 { mix.always = max(0, 1 - mix.whenInUse - mix.denied) }
        return mix.always + mix.whenInUse + mix.denied > 0 ? mix : nil
    }

    func run() async throws(CommandError) -> ExitCode {
        // Inputs first (regions, GPX, the state snapshot), then the outputs are checked: nothing is created or
        // truncated until everything the run reads has validated.
        var configuration = try simulationConfiguration()
        try outputPaths.check()
        let truth = try prepareTruth(&configuration)
        defer { truth?.cleanUp() }
        if !scenario.compareProfiles.isEmpty { return try await runComparison(configuration, truth: truth) }
        let snapshot = try restoredSnapshot()
        var sinks: [any EventSink] = []
        var eventsPath: String?
        switch scenario.events {
        case nil: break
        case "-": sinks.append(FileDescriptorSink.standardOutput)
        case let path?:
            let recorded = OutputPaths.recordedEventsPath(path)
            // A restart from a snapshot that recorded this events file continues it: the file is cut where the
            // snapshot's events end (dropping a torn line or events past the snapshot), and appended to.
            let resume = snapshot?.events.flatMap { $0.path == recorded ? $0.bytes : nil }
            do { sinks.append(try FileDescriptorSink(path: path, resumingAt: resume)) } catch {
                throw CommandError(resume == nil ? .outputFailed : .invalidInput, "\(error)")
            }
            eventsPath = recorded
        }
        let webhook = try makeWebhook()
        if let webhook { sinks.append(webhook) }
        let output: (any EventSink)? = sinks.count > 1 ? FanOutSink(sinks) : sinks.first
        let scoring = truth.flatMap { _ in scoringSink(wrapping: output) }
        let sink: (any EventSink)? = scoring ?? output
        let progress = PipelineProgress()
        var simulation = Simulation(configuration: configuration, sink: sink, progress: progress)
        let stop = StopSignal()
        simulation.stop = stop
        let target = try startTarget(configuration, truth: truth, stop: stop)
        simulation.statePath = scenario.statePath
        simulation.snapshotInterval = scenario.snapshotInterval
        simulation.restoredSnapshot = snapshot
        simulation.eventsPath = eventsPath
        let console = console
        simulation.onSnapshotFailure = { error in console.err("warning: a state snapshot could not be saved: \(error)\n") }
        let interrupts = console.handlesSignals
            ? InterruptHandler(stop: stop, console: console, drainDeadline: scenario.drainTimeout) { [scenario] signal in
                // A second signal, or a drain past its deadline: the report says how far the run got, then exit.
                Self.writePartialReport(scenario: scenario, progress: progress, signal: signal, console: console)
            }
            : nil
        defer { interrupts?.cancel() }
        let showsProgress = !scenario.quiet && console.errIsTerminal
        let progressLine = showsProgress ? ProgressLine(progress: progress, console: console) : nil
        var report: RunReport
        do {
            report = try await simulation.run()
            interrupts?.drainFinished()
            report.webhook = webhook?.statistics
            report.target = await target?.finish()
            if let scoring, let truth {
                report.score = await scoring.score(against: truth.events, tolerance: scenario.truth.tolerance)
            }
            report.origin.configuration = scenario.fingerprint
            await progressLine?.stop()
        } catch {
            interrupts?.drainFinished()
            await progressLine?.stop()
            throw Self.commandError(for: error)
        }
        report.stoppedBy = interrupts?.signalName

        let thresholds = scenario.thresholds.map { $0.evaluate(report) }
        if !thresholds.isEmpty { report.thresholds = thresholds }
        if !scenario.quiet {
            var table = SummaryTable(report: report, eventsDestination: scenario.events).text
            if let score = report.score { table += score.text }
            if let target = report.target { table += Self.targetSummary(target) }
            if humanOutputOnStandardError { console.err(table) } else { console.out(table) }
        }
        if let path = scenario.report { try Files.write(report.json, to: path, console: console) }
        if let htmlPath { try ReportHTML.write(reportJSON: report.json, to: htmlPath, console: console) }
        if let failure = report.sinkFailure {
            throw CommandError(
                .outputFailed, "\(failure); \(report.dropped) events were not written (the report counts them as dropped)")
        }
        let status = finish(thresholds, humanOutputOnStandardError: humanOutputOnStandardError)
        if let code = interrupts?.exitCode { return code }
        return report.interrupted ? .interrupted : status
    }

    /// Whether the summary goes to standard error: when events, the report or the page go to standard output.
    var humanOutputOnStandardError: Bool { scenario.events == "-" || scenario.report == "-" || htmlPath == "-" }

    /// Prints how the run fared against its thresholds (with `--quiet`, only the failed ones, on standard error)
    /// and returns the exit status: 99 when any threshold was not met.
    func finish(_ thresholds: [ThresholdResult], humanOutputOnStandardError: Bool) -> ExitCode {
        guard !thresholds.isEmpty else { return .success }
        let met = thresholds.allSatisfy(\.passed)
        if scenario.quiet {
            if !met { console.err(SummaryTable.thresholds(thresholds, onlyFailed: true)) }
        } else {
            let text = SummaryTable.thresholds(thresholds, onlyFailed: false)
            if humanOutputOnStandardError { console.err(text) } else { console.out(text) }
        }
        return met ? .success : .thresholdNotMet
    }

    private func makeWebhook() throws(CommandError) -> WebhookSink? {
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

    private func simulationConfiguration() throws(CommandError) -> SimulationConfiguration {
        var regions: [Region]?
        if let path = scenario.regionsFile {
            var warnings: [InputError] = []
            var decoded: [Region] = []
            try Files.regions(path, warnings: &warnings) { decoded.append($0) }
            for warning in warnings { console.err("warning: \(warning.in(file: path))\n") }
            regions = decoded
        }
        let source: SimulationConfiguration.Source
        // Regions each device will monitor, for the memory estimate.
        let slots = scenario.settings.slotLimit
        let monitored = min(slots, regions.map(\.count) ?? scenario.walk.regions.perDevice)
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
            var traces: [Trace] = []
            for path in paths { traces.append(try GPXFiles.trace(path: path, console: console)) }
            source = .playback(traces, scenario.playback)
        case .stdin(let format):
            guard regions != nil else {
                throw .usage("A stdin source needs regions: pass '--regions <path>' (a GeoJSON FeatureCollection)")
            }
            let console = console
            let reported = RejectionPrinter(console: console)
            var input = SampleInput.standardInput(format: format, failOnBadInput: scenario.failOnBadInput)
            input.maxDevices = min(input.maxDevices, MemoryBudget.maxDevices(regions: monitored))
            input.onRejection = { reported.print($0) }
            source = .samples(input)
        }
        var configuration = SimulationConfiguration(
            source: source, regions: regions, settings: scenario.settings, profile: scenario.profile,
            seed: scenario.seed, shards: scenario.shards ?? SimulationConfiguration.defaultShardCount,
            batchSize: scenario.batchSize, creditsPerShard: scenario.credits, pace: scenario.pace,
            filters: scenario.filters)
        configuration.partition = scenario.partition
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
