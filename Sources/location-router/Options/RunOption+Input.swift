import GeofenceFormats
import GeofenceKit
import LocationRouter

/// The options of the input: source, devices, regions, playback and the location filters.
extension RunOption {
    static let input: [RunOption] = [
        .value(
            "--source", "<kind>", key: "source.kind",
            OptionRule(expected: Scenario.sourceKinds, parse: Scenario.source(from:)),
            help: [
                "random-walk | stdin | stdin:ndjson | stdin:csv (stdin: the format is",
                "detected from the first line) | gpx:PATH[,PATH...] (play GPX files;",
                "a PATH of - is standard input)",
                "| route:LAT,LON;LAT,LON[;...] (a route at --speed).",
            ]
        ) { $0.source = $1 },
        .value(
            "--regions", "<path>", key: "regions.file", OptionRule.anyText.orNull,
            help: [
                "Regions from a GeoJSON FeatureCollection (required for stdin sources;",
                "otherwise regions are generated around each device). Polygons across",
                "±180° are split there; a ring around a pole encloses it (warnings say so).",
            ]
        ) { $0.regionsFile = $1 },
        .value(nil, nil, key: "regions.perDevice", .integer(0...10_000), help: []) { $0.walk.regions.perDevice = $1 },
        .configObject("regions.radius") { (scenario, object, key) throws(InputError) in
            guard var radius = try object.object(key) else { return }
            scenario.walk.regions.radius = try Self.range(
                &radius, default: scenario.walk.regions.radius, max: 1_000_000, allowsZeroMinimum: false)
            try radius.finish()
        },
        .value(nil, nil, key: "regions.maxDistance", .within(0...1_000_000, message: "must be 0...1000000 metres"), help: []) {
            $0.walk.regions.maxDistance = $1
        },
        .value("--devices", "<n>", key: "source.devices", .integer(1...100_000_000), help: [
            "Simulated devices (random walk, GPX and route playback).",
        ]) { $0.walk.devices = $1 },
        .configObject("source.center") { (scenario, object, key) throws(InputError) in
            guard var center = try object.object(key) else { return }
            let latitude = try center.number("lat") ?? scenario.walk.center.latitude
            let longitude = try center.number("lon") ?? scenario.walk.center.longitude
            guard (-90.0...90.0).contains(latitude) else { throw center.error("must be within -90...90", key: "lat") }
            guard (-180.0...180.0).contains(longitude) else {
                throw center.error("must be within -180...180", key: "lon")
            }
            scenario.walk.center = Coordinate(unchecked: latitude, longitude)
            try center.finish()
        },
        .value(nil, nil, key: "source.areaRadius", .positive(max: 1_000_000), help: []) { $0.walk.areaRadius = $1 },
        .configObject("source.speed") { (scenario, object, key) throws(InputError) in
            guard var speed = try object.object(key) else { return }
            scenario.walk.speed = try Self.range(&speed, default: scenario.walk.speed, max: 1_000, allowsZeroMinimum: true)
            try speed.finish()
        },
        .value(nil, nil, key: "source.headingNoise", .within(0...360, message: "must be 0...360 degrees"), help: []) {
            $0.walk.headingNoise = $1
        },
        .value(
            nil, nil, key: "source.start",
            .text("an ISO-8601 time", message: "must be an ISO-8601 time such as 2026-11-21T08:00:00Z") {
                Timestamp(iso8601: $0)
            }, help: []
        ) { $0.walk.start = $1 },
        .value(
            "--duration", "<seconds>", key: "source.duration",
            .within(0...31_622_400, message: "must be 0...31622400 seconds"), help: ["Simulated seconds of random walk."]
        ) { $0.walk.duration = $1 },
        .value("--interval", "<seconds>", key: "source.interval", .positive(max: 86_400), help: [
            "Seconds between two samples of a device.",
        ]) { $0.walk.interval = $1 },
        .value("--speed", "<m/s>", key: "source.playback.speed", .positive(max: 1_000), help: [
            "Playback speed of routes and of GPX legs without times.",
        ]) { $0.playbackSpeed = $1 },
        .value(
            "--sample-distance", "<m>", key: "source.playback.sampleDistance", OptionRule.positive(max: 1_000_000).orNull,
            errorName: "<metres>", help: ["Sample routes every <m> metres instead of every interval."]
        ) { $0.sampleDistance = $1 },
        .value("--stagger", "<seconds>", key: "source.playback.stagger", .nonNegative(max: 31_622_400), help: [
            "The k-th device playing a file starts k × <seconds> later.",
        ]) { $0.stagger = $1 },
        .value("--time-jitter", "<s>", key: "source.playback.timeJitter", .nonNegative(max: 31_622_400), errorName: "<seconds>", help: [
            "Seeded extra start delay per playing device, up to <s> seconds.",
        ]) { $0.timeJitter = $1 },
        .value("--position-jitter", "<m>", key: "source.playback.positionJitter", .nonNegative(max: 1_000_000), errorName: "<metres>", help: [
            "Seeded constant displacement per playing device, up to <m> metres.",
        ]) { $0.positionJitter = $1 },
        .value(
            "--distance-filter", "<m>", key: "filters.distance", OptionRule.positive(max: 1_000_000).orNull,
            errorName: "<metres>", help: ["Report a sample only after moving <m> metres (Core Location's)."]
        ) { $0.filters.distanceFilter = $1 },
        significantChange,
        .value("--accuracy", "<m>", key: "filters.accuracy", OptionRule.positive(max: 100_000).orNull, errorName: "<metres>", help: [
            "Seeded position noise with a 68 % radius of <m> metres.",
        ]) { $0.filters.noiseAccuracy = $1 },
    ]

    /// `--significant-change` turns coarse updates on with the config's thresholds (or the defaults);
    /// `filters.significantChange` turns them on or off, with `significantChangeDistance` and `…Interval`.
    static let significantChange = RunOption(
        flag: "--significant-change", placeholder: nil, key: "filters.significantChange",
        help: ["Coarse updates: after ≥ 500 m, at most one per 5 minutes."],
        applyArguments: { (scenario, _) throws(CommandError) in
            scenario.filters.significantChange = scenario.filters.significantChange ?? .init()
        },
        applyConfig: { (scenario, filters, key) throws(InputError) in
            var coarse = LocationFilterSettings.SignificantChange()
            coarse.minimumDistance = try OptionRule.positive(max: 1_000_000).read(&filters, "significantChangeDistance")
                ?? coarse.minimumDistance
            coarse.minimumInterval = try OptionRule.nonNegative(max: 86_400).read(&filters, "significantChangeInterval")
                ?? coarse.minimumInterval
            if let on = try filters.bool(key) { scenario.filters.significantChange = on ? coarse : nil }
        })

    /// A `{"min": …, "max": …}` object.
    static func range(
        _ object: inout JSONObjectReader, default current: ClosedRange<Double>, max limit: Double,
        allowsZeroMinimum: Bool
    ) throws(InputError) -> ClosedRange<Double> {
        let low = try object.number("min") ?? current.lowerBound
        let high = try object.number("max") ?? current.upperBound
        guard low.isFinite, allowsZeroMinimum ? low >= 0 : low > 0 else {
            throw object.error(allowsZeroMinimum ? "must be ≥ 0" : "must be > 0", key: "min")
        }
        guard high.isFinite, high > 0 else { throw object.error("must be > 0", key: "max") }
        guard high <= limit else { throw object.error("must be ≤ \(Int(limit))", key: "max") }
        guard low <= high else { throw object.error("must be ≥ min (\(low))", key: "max") }
        return low...high
    }
}
