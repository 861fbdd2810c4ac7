import GeofenceFormats
import GeofenceKit
import LocationRouter

/// The options of the monitors: profile, the keys that override its rules, and profile comparison.
extension RunOption {
    static let monitoring: [RunOption] = [
        .value(
            "--profile", "<name>", key: "profile",
            .text(Scenario.profiles.joined(separator: ", "), message: "must be one of \(Scenario.profiles.joined(separator: ", "))") {
                Scenario.profiles.contains($0) ? $0 : nil
            }, help: ["Monitoring profile: exact | ios | android | clmonitor."]
        ) { $0.profile = $1 },
        .value(nil, nil, key: "monitor.slots", .integer(1...10_000), help: []) { $0.monitor.slots = $1 },
        .value(
            "--initial-trigger", "<t>", key: "monitor.initialTrigger",
            .text(
                "none, or state, enter, dwell, exit joined by commas",
                message: "must be none, or state, enter, dwell and exit joined by commas (\"enter,dwell\")"
            ) { InitialTriggers(text: $0) },
            help: [
                "What a region registered while inside reports: none, or state, enter,",
                "dwell, exit joined by commas (default: the profile's; exit: Android's",
                "INITIAL_TRIGGER_EXIT, for the regions the device is outside).",
            ]
        ) { $0.monitor.initialTriggers = $1 },
        .value(nil, nil, key: "monitor.failureCode", .integer(-1_000_000...1_000_000), help: []) {
            $0.monitor.tooManyRegionsCode = Int32($1)
        },
        .value(nil, nil, key: "monitor.deniedCode", .integer(-1_000_000...1_000_000), help: []) {
            $0.monitor.deniedCode = Int32($1)
        },
        .value("--buffer", "<m>", key: "monitor.hysteresis.buffer", .nonNegative(max: 100_000), errorName: "<metres>", help: [
            "Hysteresis: metres past the boundary before a transition counts.",
        ]) { $0.monitor.bufferDistance = $1 },
        .value("--confirmation", "<s>", key: "monitor.hysteresis.confirmation", .nonNegative(max: 86_400), errorName: "<seconds>", help: [
            "Hysteresis: seconds the device must stay past the buffer.",
        ]) { $0.monitor.confirmationTime = $1 },
        .value(nil, nil, key: "monitor.confidence", .boolean, help: []) { $0.monitor.confidence = $1 },
        .value(nil, nil, key: "monitor.maximumRadius", OptionRule.positive(max: 20_000_000).orNull, help: []) {
            $0.monitor.maximumRadius = .some($1)
        },
        .value(nil, nil, key: "monitor.dwell", .boolean, help: []) { $0.monitor.dwell = $1 },
        .value("--loitering-delay", "<s>", key: "monitor.loiteringDelay", .nonNegative(max: 31_622_400), errorName: "<seconds>", help: [
            "Seconds inside before a dwell event.",
        ]) { $0.monitor.loiteringDelay = $1 },
        .value("--authorization", "<s>", key: "monitor.authorization", .authorization, errorName: "<shares>", help: [
            "Shares of devices per status: always=0.8,whenInUse=0.15,denied=0.05.",
        ]) { $0.monitor.authorization = $1 },
        .value("--compare-profiles", "<l>", key: "compareProfiles", .profileList, errorName: "<list>", help: [
            "Run the same input through exact and these profiles (e.g. ios,android)",
            "and report the events each one missed, added or delayed.",
        ]) { $0.compareProfiles = $1 },
    ]
}

extension OptionRule where Value == AuthorizationMix {
    /// `always=0.8,whenInUse=0.15,denied=0.05` on the command line (absent `always` is the rest); in config.json
    /// an object of those shares and `foregroundSeconds`, `backgroundSeconds`.
    static var authorization: OptionRule {
        OptionRule(
            expected: "e.g. always=0.8,whenInUse=0.15,denied=0.05",
            parse: { text in
                guard let mix = AuthorizationMix(shares: text) else {
                    return .failure(OptionRejection(message: "must be shares"))
                }
                if let problem = mix.sharesProblem {
                    return .failure(OptionRejection(message: problem, detailsOnCommandLine: true))
                }
                return .success(mix)
            },
            read: { (object, key) throws(InputError) -> AuthorizationMix? in
                guard var authorization = try object.object(key) else { return nil }
                var mix = AuthorizationMix()
                mix.whenInUse = try OptionRule<Double>.nonNegative(max: 1).read(&authorization, "whenInUse") ?? 0
                mix.denied = try OptionRule<Double>.nonNegative(max: 1).read(&authorization, "denied") ?? 0
                // Absent, `always` is the rest of the devices.
                mix.always = try OptionRule<Double>.nonNegative(max: 1).read(&authorization, "always")
                    ?? max(0, 1 - mix.whenInUse - mix.denied)
                if let problem = mix.sharesProblem { throw authorization.error(problem, key: "always") }
                mix.foregroundSeconds = try OptionRule<Double>.positive(max: 31_622_400).read(
                    &authorization, "foregroundSeconds") ?? mix.foregroundSeconds
                mix.backgroundSeconds = try OptionRule<Double>.positive(max: 31_622_400).read(
                    &authorization, "backgroundSeconds") ?? mix.backgroundSeconds
                try authorization.finish()
                return mix
            })
    }
}

extension OptionRule where Value == [MonitoringProfile] {
    /// Profiles joined by commas on the command line; an array of names in config.json.
    static var profileList: OptionRule {
        let names = Scenario.profiles.joined(separator: ", ")
        return OptionRule(
            expected: "profiles from \(names), joined by commas",
            parse: { text in
                let profiles = text.split(separator: ",").map { MonitoringProfile(rawValue: String($0)) }
                guard !profiles.isEmpty, profiles.allSatisfy({ $0 != nil }) else {
                    return .failure(OptionRejection(message: "must be one of \(names)"))
                }
                return .success(profiles.compactMap { $0 })
            },
            read: { (object, key) throws(InputError) -> [MonitoringProfile]? in
                guard let values = try object.array(key) else { return nil }
                var profiles: [MonitoringProfile] = []
                for (index, value) in values.enumerated() {
                    let path = JSONValue.path(object.path(of: key), index: index)
                    guard let profile = MonitoringProfile(rawValue: try value.string(path: path)) else {
                        throw value.error("must be one of \(names)", path: path)
                    }
                    profiles.append(profile)
                }
                return profiles
            })
    }
}

extension AuthorizationMix {
    /// Parses `always=0.8,whenInUse=0.15,denied=0.05` (absent `always` is the rest); nil when invalid.
    init?(shares text: String) {
        var mix = AuthorizationMix(always: -1, whenInUse: 0, denied: 0)
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let share = Double(decimal: parts[1]), share.isFinite, (0...1).contains(share)
            else { return nil }
            switch parts[0] {
            case "always": mix.always = share
            case "whenInUse": mix.whenInUse = share
            case "denied": mix.denied = share
            default: return nil
            }
        }
        if mix.always < 0 { mix.always = max(0, 1 - mix.whenInUse - mix.denied) }
        self = mix
    }

    /// Why the shares are not a split of the devices: they must add up to 1 (`denied=0.1` alone is 10 % denied, the
    /// rest `always`); `nil` when they do. Shares were once scaled to their sum, so `always=0.2,denied=0.2` denied
    /// half the devices.
    var sharesProblem: String? {
        let sum = always + whenInUse + denied
        guard abs(sum - 1) > 1e-9 else { return nil }
        return "the shares add up to \((sum * 1e6).rounded() / 1e6), not 1 (leave always out to give it the rest)"
    }
}
