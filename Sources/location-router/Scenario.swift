import GeofenceKit
import LocationRouter

/// A run as the user describes it: built-in defaults, then `config.json`, then command-line options.
///
/// The built-in defaults are the shipped `config.json`'s scenario, so a run without a config file behaves the
/// same as `swift run -c release location-router` in the project folder.
struct Scenario: Equatable {
    enum SourceChoice: Equatable {
        case randomWalk
        case stdin(SampleFormat?)
    }

    var source: SourceChoice = .randomWalk
    var walk = RandomWalkConfiguration()
    var regionsFile: String?
    var profile = "exact"
    var slots: Int?
    var initialTrigger: InitialTrigger?
    var seed: UInt64 = 42
    var pace: Pace = .max
    /// `-` for standard output, a path, or `nil` for none.
    var events: String? = "events.ndjson"
    var report: String? = "report.json"
    var quiet = false
    var failOnBadInput = false
    var shards: Int?
    var batchSize = 1024
    var credits = 4

    /// The monitor rules: the profile's, with any key the user overrode.
    var settings: MonitorSettings {
        var settings = MonitorSettings.exact
        if let slots { settings.slotLimit = slots }
        if let initialTrigger { settings.initialTrigger = initialTrigger }
        return settings
    }

    static let profiles = ["exact"]

    /// Parses a `--source` / `source.kind` value.
    static func source(from text: String) -> SourceChoice? {
        switch text {
        case "random-walk": .randomWalk
        case "stdin": .stdin(nil)
        case "stdin:ndjson": .stdin(.ndjson)
        case "stdin:csv": .stdin(.csv)
        default: nil
        }
    }

    /// Parses a `--pace` / `pace` value: `max`, `realtime` or a factor > 0.
    static func pace(from text: String) -> Pace? {
        switch text {
        case "max": return .max
        case "realtime": return .factor(1)
        default:
            guard let factor = Double(text), factor.isFinite, factor > 0 else { return nil }
            return .factor(factor)
        }
    }
}
