import GeofenceFormats
import GeofenceKit
import LocationRouter

/// The options of platform behaviour as real devices show it: delivery delays, polygons, visits and stops.
extension RunOption {
    static let platform: [RunOption] = [
        .value("--delivery", "<d>", key: "monitor.delivery", .delivery, errorName: "<delay>", help: [
            "When the app receives an event the platform decided: instant, fixed:S,",
            "or lognormal:MEDIAN,P95 (seconds; default: the profile's).",
        ]) { $0.monitor.delivery = $1 },
        .value("--polygons", "<p>", key: "monitor.polygons", .polygons, help: [
            "Polygon regions: monitor (exact), refuse (unsupportedShape), or",
            "enclosingCircle (the app tests the polygon on the circle's events).",
        ]) { $0.monitor.polygons = $1 },
        .value(nil, nil, key: "monitor.unsupportedShapeCode", .integer(-1_000_000...1_000_000), help: []) {
            $0.monitor.unsupportedShapeCode = Int32($1)
        },
        RunOption(
            flag: "--visits", placeholder: nil, key: "monitor.visits",
            help: ["Also report visit events (arrival, departure) from stops of 300 s", "within 100 m."],
            applyArguments: { scenario, _ throws(CommandError) in
                if scenario.monitor.visits == nil || scenario.monitor.visits == .some(nil) {
                    scenario.monitor.visits = .some(VisitSettings())
                }
            },
            applyConfig: { scenario, object, key throws(InputError) in
                if let visits = try OptionRule<VisitSettings?>.visits.read(&object, key) { scenario.monitor.visits = .some(visits) }
            }),
        .value("--stops", "<s>", key: "source.stops", .stops, errorName: "<share[,mean]>", help: [
            "Random walk: devices stop this share of the time, stops of MEAN seconds",
            "on average (default 900), e.g. 0.3,600.",
        ]) { $0.walk.stops = $1 },
    ]
}

extension OptionRule where Value == DeliveryDelay {
    /// `instant`, `fixed:S` or `lognormal:MEDIAN,P95` on the command line; in config.json `"instant"`,
    /// `{"fixed": S}` or `{"distribution": "lognormal", "median": S, "p95": S}`.
    static var delivery: OptionRule {
        let expected = "instant, fixed:SECONDS or lognormal:MEDIAN,P95"
        return OptionRule(
            expected: expected,
            parse: { text in DeliveryDelay.parsing(text, expected: expected) },
            read: { (object, key) throws(InputError) -> DeliveryDelay? in
                guard let value = object.value(key), !value.isNull else { return nil }
                if case .string = value.kind {
                    guard try object.string(key) == "instant" else {
                        throw object.error("must be \"instant\", {\"fixed\": S} or {\"distribution\": \"lognormal\", \"median\": S, \"p95\": S}", key: key)
                    }
                    return .instant
                }
                guard var delay = try object.object(key) else { return nil }
                if let fixed = try OptionRule<Double>.nonNegative(max: 86_400).read(&delay, "fixed") {
                    try delay.finish()
                    return DeliveryDelay(.fixed(fixed))
                }
                guard let distribution = try delay.string("distribution"), distribution == "lognormal" else {
                    throw delay.error("must be \"lognormal\" (or give \"fixed\")", key: "distribution")
                }
                guard let median = try OptionRule<Double>.positive(max: 86_400).read(&delay, "median") else {
                    throw delay.error("missing: the median delay in seconds", key: "median")
                }
                guard let p95 = try OptionRule<Double>.positive(max: 86_400).read(&delay, "p95") else {
                    throw delay.error("missing: the 95th percentile in seconds", key: "p95")
                }
                guard p95 >= median else { throw delay.error("must be ≥ the median", key: "p95") }
                try delay.finish()
                return DeliveryDelay(.lognormal(median: median, p95: p95))
            })
    }
}

extension DeliveryDelay {
    /// Parses `instant`, `fixed:S` or `lognormal:MEDIAN,P95` (0 ≤ S, 0 < MEDIAN ≤ P95, at most a day); a refusal
    /// names the bound a number broke, or says what is `expected` when the text is none of the three forms.
    static func parsing(_ text: String, expected: String) -> Result<DeliveryDelay, OptionRejection> {
        if text == "instant" { return .success(.instant) }
        let unknown = OptionRejection(message: "must be \(expected)")
        func bound(_ message: String) -> OptionRejection { OptionRejection(message: message, detailsOnCommandLine: true) }
        func seconds(_ part: Substring, _ name: String) -> Result<Double, OptionRejection> {
            guard let value = Double(decimal: part), value.isFinite else { return .failure(unknown) }
            guard value >= 0 else { return .failure(bound("\(name) must be ≥ 0 seconds")) }
            guard value <= 86_400 else { return .failure(bound("\(name) must be at most 86400 seconds (a day)")) }
            return .success(value)
        }
        if text.hasPrefix("fixed:") {
            return seconds(text.dropFirst(6), "fixed's S").map { DeliveryDelay(.fixed($0)) }
        }
        let parts = text.dropFirst(10).split(separator: ",", omittingEmptySubsequences: false)
        guard text.hasPrefix("lognormal:"), parts.count == 2 else { return .failure(unknown) }
        return seconds(parts[0], "lognormal's MEDIAN").flatMap { median in
            seconds(parts[1], "lognormal's P95").flatMap { p95 in
                guard median > 0 else { return .failure(bound("lognormal's MEDIAN must be > 0 seconds")) }
                guard p95 >= median else {
                    return .failure(bound("lognormal's P95 (\(parts[1])) must be ≥ its MEDIAN (\(parts[0]))"))
                }
                return .success(DeliveryDelay(.lognormal(median: median, p95: p95)))
            }
        }
    }
}

extension OptionRule where Value == PolygonHandling {
    static var polygons: OptionRule {
        let names = PolygonHandling.allCases.map(\.rawValue).joined(separator: ", ")
        return .text(names, message: "must be one of \(names)") { PolygonHandling(rawValue: $0) }
    }
}

extension OptionRule where Value == VisitSettings? {
    /// config.json's `monitor.visits`: `true` (the defaults), `false`, or `{"radius": M, "minimumStay": S}`.
    static var visits: OptionRule {
        OptionRule(
            expected: "true, false or {\"radius\", \"minimumStay\"}",
            parse: { text in
                text == "true" ? .success(VisitSettings()) : text == "false" ? .success(nil)
                    : .failure(OptionRejection(message: "must be true or false"))
            },
            read: { (object, key) throws(InputError) -> VisitSettings?? in
                guard let value = object.value(key), !value.isNull else { return nil }
                if case .bool = value.kind { return .some(try object.bool(key) == true ? VisitSettings() : nil) }
                guard var visits = try object.object(key) else { return nil }
                var settings = VisitSettings()
                settings.radius = try OptionRule<Double>.positive(max: 100_000).read(&visits, "radius") ?? settings.radius
                settings.minimumStay = try OptionRule<Double>.positive(max: 86_400).read(&visits, "minimumStay")
                    ?? settings.minimumStay
                try visits.finish()
                return .some(settings)
            })
    }
}

extension OptionRule where Value == RandomWalkStops? {
    /// `SHARE[,MEAN]` on the command line; in config.json `{"share": 0…1, "meanLength": S}` or `null` (no stops).
    static var stops: OptionRule {
        OptionRule(
            expected: "a share 0...1, optionally a mean stop length in seconds: 0.3,600",
            parse: { text in
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count), let share = Double(decimal: parts[0]), share.isFinite,
                    (0...1).contains(share)
                else { return .failure(OptionRejection(message: "must be SHARE[,MEAN]")) }
                var stops = RandomWalkStops(share: share)
                if parts.count == 2 {
                    guard let mean = Double(decimal: parts[1]), mean.isFinite, mean > 0, mean <= 31_622_400 else {
                        return .failure(OptionRejection(message: "must be SHARE[,MEAN]"))
                    }
                    stops.meanLength = mean
                }
                return .success(share > 0 ? stops : nil)
            },
            read: { (object, key) throws(InputError) -> RandomWalkStops?? in
                guard let value = object.value(key) else { return nil }
                if value.isNull { return .some(nil) }
                guard var stops = try object.object(key) else { return nil }
                var result = RandomWalkStops()
                result.share = try OptionRule<Double>.within(0...1, message: "must be 0...1").read(&stops, "share") ?? result.share
                result.meanLength = try OptionRule<Double>.positive(max: 31_622_400).read(&stops, "meanLength")
                    ?? result.meanLength
                try stops.finish()
                return .some(result.share > 0 ? result : nil)
            })
    }
}
