import GeofenceKit
import LocationRouter
import GeofenceFormats

/// A run as the user describes it: built-in defaults, then `config.json`, then command-line options.
///
/// The built-in defaults are the shipped `config.json`'s scenario, so a run without a config file behaves the
/// same as `swift run -c release location-router` in the project folder.
struct Scenario: Equatable {
    enum SourceChoice: Equatable {
        case randomWalk
        case stdin(SampleFormat?)
        /// GPX files, played by the devices round-robin.
        case gpx([String])
        /// `LAT,LON;LAT,LON;…`
        case route(String)
    }

    var source: SourceChoice = .randomWalk
    var walk = RandomWalkConfiguration()
    var regionsFile: String?
    var profile = "exact"
    /// Keys of `monitor` that override the profile's defaults.
    var monitor = MonitorOverrides()
    /// `--compare-profiles`: run the same input through these profiles and compare them with `exact`.
    var compareProfiles: [MonitoringProfile] = []
    /// How devices choose from a shared catalog, and whether coverage is evaluated (RunOption+Catalog).
    var selection = SelectionSettings()
    var coverage = false
    var seed: UInt64 = 42
    var pace: Pace = .max
    /// `-` for standard output, a path, or `nil` for none.
    var events: String? = Self.defaultEventsPath
    /// Where events go when neither `--events` nor `events` says.
    static let defaultEventsPath = "events.ndjson"
    var report: String? = "report.json"
    var quiet = false
    var failOnBadInput = false
    var shards: Int?
    var batchSize = 1024
    var credits = 4
    /// Playback of GPX files and routes.
    var playbackSpeed = 10.0
    /// Sample a route every this many metres instead of every interval.
    var sampleDistance: Double?
    var stagger = 1.0
    var timeJitter = 0.0
    var positionJitter = 0.0
    var filters = LocationFilterSettings()
    /// `--state`: where device state is saved at the end and restored from at the start.
    var statePath: String?
    /// Wall-clock seconds between snapshots during the run (0: only at the end).
    var snapshotInterval = 0.0
    /// Seconds a run stopped by a signal may take to drain before it writes a partial report and exits.
    var drainTimeout = InterruptHandler.defaultDrainDeadline
    /// Events are also POSTed to this http(s) URL.
    var webhookURL: String?
    var webhook = WebhookSettings()
    /// Conditions on the report that the run must meet (exit 99 otherwise).
    var thresholds: [Threshold] = []
    /// `--ground-truth`, `--score` and the options that drive a service under test.
    var truth = TruthOptions()
    /// `--partition I/N`: the slice of the devices this process simulates.
    var partition = Partition.whole

    /// The tunable parts of webhook delivery (see ``WebhookConfiguration``).
    struct WebhookSettings: Equatable {
        var deadLetter: String?
        var batchSize = 500
        var linger = 0.05
        var concurrency = 4
        var timeout = 10.0
        var maxAttempts = 5
        var gracePeriod = 10.0
    }

    /// The playback configuration of GPX and route sources, from the shared source keys.
    var playback: PlaybackConfiguration {
        PlaybackConfiguration(
            devices: walk.devices, speed: playbackSpeed,
            interval: sampleDistance.map { $0 / playbackSpeed } ?? walk.interval, start: walk.start, stagger: stagger,
            timeJitter: timeJitter, positionJitter: positionJitter, regions: walk.regions)
    }

    /// The monitor rules: the profile's, with any key the user overrode.
    var settings: MonitorSettings { settings(for: MonitoringProfile(rawValue: profile) ?? .exact) }

    func settings(for profile: MonitoringProfile) -> MonitorSettings {
        monitor.applied(to: profile.settings)
    }

    static let profiles = MonitoringProfile.allCases.map(\.rawValue)

    /// Parses a `--source` / `source.kind` value, or says why it is refused.
    static func source(from text: String) -> Result<SourceChoice, OptionRejection> {
        switch text {
        case "random-walk": return .success(.randomWalk)
        case "stdin": return .success(.stdin(nil))
        case "stdin:ndjson": return .success(.stdin(.ndjson))
        case "stdin:csv": return .success(.stdin(.csv))
        default:
            if text.hasPrefix("gpx:") { return gpxSource(text.dropFirst(4)) }
            if text.hasPrefix("route:") { return .success(.route(String(text.dropFirst(6)))) }
            return .failure(OptionRejection(message: "must be one of \(sourceKinds)"))
        }
    }

    /// The paths of `gpx:PATH[,PATH…]`, where `-` is standard input (as for most tools that read files), which
    /// can be read once.
    private static func gpxSource(_ list: Substring) -> Result<SourceChoice, OptionRejection> {
        let paths = list.split(separator: ",").map { $0 == "-" ? "/dev/stdin" : String($0) }
        guard !paths.isEmpty else {
            return .failure(
                OptionRejection(message: "gpx: needs at least one path (gpx:PATH[,PATH…])", detailsOnCommandLine: true))
        }
        guard paths.count(where: { $0 == "/dev/stdin" }) <= 1 else {
            return .failure(
                OptionRejection(
                    message: "standard input ('-' or /dev/stdin) is named more than once; it can be read only once",
                    detailsOnCommandLine: true))
        }
        return .success(.gpx(paths))
    }

    static let partitionRule = "must be I/N with 0 ≤ I < N ≤ \(Partition.maximumCount), e.g. 0/4"

    static let sourceKinds = "random-walk, stdin, stdin:ndjson, stdin:csv, gpx:PATH[,PATH…], route:LAT,LON;LAT,LON[;…]"

    /// Parses a `--pace` / `pace` value: `max`, `realtime` or a factor > 0.
    static func pace(from text: String) -> Pace? {
        switch text {
        case "max": return .max
        case "realtime": return .factor(1)
        default:
            guard let factor = Double(decimal: text), factor.isFinite, factor > 0 else { return nil }
            return .factor(factor)
        }
    }
}

/// The `monitor` keys of config.json and their options: each overrides one default of the profile.
struct MonitorOverrides: Equatable {
    var slots: Int?
    var initialTriggers: InitialTriggers?
    var tooManyRegionsCode: Int32?
    var deniedCode: Int32?
    var bufferDistance: Double?
    var confirmationTime: Double?
    var confidence: Bool?
    var maximumRadius: Double??
    var dwell: Bool?
    var loiteringDelay: Double?
    var authorization: AuthorizationMix?
    var delivery: DeliveryDelay?
    var polygons: PolygonHandling?
    var unsupportedShapeCode: Int32?
    /// `--visits` / `monitor.visits`: `.some(nil)` turns visits off.
    var visits: VisitSettings??

    func applied(to defaults: MonitorSettings) -> MonitorSettings {
        var settings = defaults
        if let slots { settings.slotLimit = slots }
        if let initialTriggers { settings.initialTriggers = initialTriggers }
        if let tooManyRegionsCode { settings.tooManyRegionsCode = tooManyRegionsCode }
        if let deniedCode { settings.deniedCode = deniedCode }
        if let bufferDistance { settings.hysteresis.bufferDistance = bufferDistance }
        if let confirmationTime { settings.hysteresis.confirmationTime = confirmationTime }
        if let confidence { settings.confidence = confidence ? (settings.confidence ?? Confidence()) : nil }
        if let maximumRadius { settings.maximumRadius = maximumRadius }
        if let dwell { settings.dwellByDefault = dwell }
        if let loiteringDelay { settings.loiteringDelay = loiteringDelay }
        if let authorization { settings.authorization = authorization }
        if let delivery { settings.delivery = delivery }
        if let polygons { settings.polygons = polygons }
        if let unsupportedShapeCode { settings.unsupportedShapeCode = unsupportedShapeCode }
        if let visits { settings.visits = visits }
        return settings
    }
}
