import GeofenceKit
import LocationRouter
import GeofenceFormats

/// Reading `config.json`: every key is checked, unknown keys and out-of-range values are errors naming the key
/// path (`source.speed.max: must be > 0`), and absent keys keep the built-in default.
extension Scenario {
    mutating func apply(configJSON bytes: [UInt8]) throws(InputError) {
        var root = try JSONObjectReader(try JSONParser.parse(bytes), path: "")
        if var source = try root.object("source") {
            try readSource(&source)
            try source.finish()
        }
        if var regions = try root.object("regions") {
            try readRegions(&regions)
            try regions.finish()
        }
        if let profile = try root.string("profile") {
            guard Self.profiles.contains(profile) else {
                throw root.error("must be one of \(Self.profiles.joined(separator: ", "))", key: "profile")
            }
            self.profile = profile
        }
        if var monitor = try root.object("monitor") {
            try readMonitor(&monitor)
            try monitor.finish()
        }
        if let profiles = try root.array("compareProfiles") {
            compareProfiles = []
            for (index, value) in profiles.enumerated() {
                let path = JSONValue.path("compareProfiles", index: index)
                guard let profile = MonitoringProfile(rawValue: try value.string(path: path)) else {
                    throw value.error("must be one of \(Self.profiles.joined(separator: ", "))", path: path)
                }
                compareProfiles.append(profile)
            }
        }
        if let seed = root.value("seed"), !seed.isNull {
            guard let text = seed.numberText, let value = UInt64(text) else {
                throw root.error("must be a whole number from 0 to \(UInt64.max)", key: "seed")
            }
            self.seed = value
        }
        if let pace = root.value("pace"), !pace.isNull {
            let text = pace.numberText ?? (try? pace.string(path: "pace")) ?? ""
            guard let value = Self.pace(from: text) else {
                throw root.error("must be \"max\", \"realtime\" or a number > 0", key: "pace")
            }
            self.pace = value
        }
        if root.value("events") != nil { events = try root.string("events") }
        if root.value("report") != nil { report = try root.string("report") }
        quiet = try root.bool("quiet") ?? quiet
        if let policy = try root.string("onBadInput") {
            guard policy == "skip" || policy == "fail" else {
                throw root.error("must be \"skip\" or \"fail\"", key: "onBadInput")
            }
            failOnBadInput = policy == "fail"
        }
        if var state = try root.object("state") {
            if state.value("path") != nil { statePath = try state.string("path") }
            snapshotInterval = try Self.nonNegative(&state, "interval", max: 86_400) ?? snapshotInterval
            try state.finish()
        }
        if var sinks = try root.object("sinks") {
            if var webhook = try sinks.object("webhook") {
                try readWebhook(&webhook)
                try webhook.finish()
            }
            try sinks.finish()
        }
        if var filters = try root.object("filters") {
            try readFilters(&filters)
            try filters.finish()
        }
        if var pipeline = try root.object("pipeline") {
            if let shards = try pipeline.integer("shards") {
                guard (0...1024).contains(shards) else {
                    throw pipeline.error("must be 0 (one per core) to 1024", key: "shards")
                }
                self.shards = shards == 0 ? nil : shards
            }
            batchSize = try Self.integer(&pipeline, "batchSize", in: 1...1_000_000) ?? batchSize
            credits = try Self.integer(&pipeline, "credits", in: 1...1024) ?? credits
            try pipeline.finish()
        }
        if let expressions = try root.array("thresholds") {
            thresholds = []
            for (index, value) in expressions.enumerated() {
                let path = JSONValue.path("thresholds", index: index)
                let text = try value.string(path: path)
                do {
                    thresholds.append(try Threshold(parsing: text))
                } catch {
                    throw value.error(error.message, path: path)
                }
            }
        }
        if let text = try root.string("partition") {
            guard let partition = Partition(parsing: text) else { throw root.error(Self.partitionRule, key: "partition") }
            self.partition = partition
        }
        try root.finish()
    }

    private mutating func readSource(_ source: inout JSONObjectReader) throws(InputError) {
        if let kind = try source.string("kind") {
            guard let choice = Self.source(from: kind) else {
                throw source.error("must be one of \(Self.sourceKinds)", key: "kind")
            }
            self.source = choice
        }
        walk.devices = try Self.integer(&source, "devices", in: 1...100_000_000) ?? walk.devices
        if var center = try source.object("center") {
            let latitude = try center.number("lat") ?? walk.center.latitude
            let longitude = try center.number("lon") ?? walk.center.longitude
            guard (-90.0...90.0).contains(latitude) else { throw center.error("must be within -90...90", key: "lat") }
            guard (-180.0...180.0).contains(longitude) else {
                throw center.error("must be within -180...180", key: "lon")
            }
            walk.center = Coordinate(unchecked: latitude, longitude)
            try center.finish()
        }
        walk.areaRadius = try Self.positive(&source, "areaRadius", max: 1_000_000) ?? walk.areaRadius
        if var speed = try source.object("speed") {
            walk.speed = try Self.range(&speed, default: walk.speed, max: 1_000, allowsZeroMinimum: true)
            try speed.finish()
        }
        walk.interval = try Self.positive(&source, "interval", max: 86_400) ?? walk.interval
        if let noise = try source.number("headingNoise") {
            guard noise.isFinite, (0...360).contains(noise) else {
                throw source.error("must be 0...360 degrees", key: "headingNoise")
            }
            walk.headingNoise = noise
        }
        if let start = try source.string("start") {
            guard let time = Timestamp(iso8601: start) else {
                throw source.error("must be an ISO-8601 time such as 2026-11-21T08:00:00Z", key: "start")
            }
            walk.start = time
        }
        if var playback = try source.object("playback") {
            playbackSpeed = try Self.positive(&playback, "speed", max: 1_000) ?? playbackSpeed
            if playback.value("sampleDistance") != nil {
                sampleDistance = try Self.positive(&playback, "sampleDistance", max: 1_000_000)
            }
            stagger = try Self.nonNegative(&playback, "stagger", max: 31_622_400) ?? stagger
            timeJitter = try Self.nonNegative(&playback, "timeJitter", max: 31_622_400) ?? timeJitter
            positionJitter = try Self.nonNegative(&playback, "positionJitter", max: 1_000_000) ?? positionJitter
            try playback.finish()
        }
        if let duration = try source.number("duration") {
            guard duration.isFinite, (0...31_622_400).contains(duration) else {
                throw source.error("must be 0...31622400 seconds", key: "duration")
            }
            walk.duration = duration
        }
    }

    private mutating func readRegions(_ regions: inout JSONObjectReader) throws(InputError) {
        if regions.value("file") != nil { regionsFile = try regions.string("file") }
        walk.regions.perDevice = try Self.integer(&regions, "perDevice", in: 0...10_000) ?? walk.regions.perDevice
        if var radius = try regions.object("radius") {
            walk.regions.radius = try Self.range(
                &radius, default: walk.regions.radius, max: 1_000_000, allowsZeroMinimum: false)
            try radius.finish()
        }
        if let distance = try regions.number("maxDistance") {
            guard distance.isFinite, (0...1_000_000).contains(distance) else {
                throw regions.error("must be 0...1000000 metres", key: "maxDistance")
            }
            walk.regions.maxDistance = distance
        }
    }

    private mutating func readMonitor(_ object: inout JSONObjectReader) throws(InputError) {
        monitor.slots = try Self.integer(&object, "slots", in: 1...10_000) ?? monitor.slots
        if let text = try object.string("initialTrigger") {
            guard let triggers = InitialTriggers(text: text) else {
                throw object.error("must be none, or state, enter and dwell joined by commas (\"enter,dwell\")", key: "initialTrigger")
            }
            monitor.initialTriggers = triggers
        }
        if let code = try Self.integer(&object, "failureCode", in: -1_000_000...1_000_000) { monitor.tooManyRegionsCode = Int32(code) }
        if let code = try Self.integer(&object, "deniedCode", in: -1_000_000...1_000_000) { monitor.deniedCode = Int32(code) }
        if var hysteresis = try object.object("hysteresis") {
            monitor.bufferDistance = try Self.nonNegative(&hysteresis, "buffer", max: 100_000) ?? monitor.bufferDistance
            monitor.confirmationTime = try Self.nonNegative(&hysteresis, "confirmation", max: 86_400) ?? monitor.confirmationTime
            try hysteresis.finish()
        }
        monitor.confidence = try object.bool("confidence") ?? monitor.confidence
        if let value = object.value("maximumRadius") {
            monitor.maximumRadius = value.isNull ? .some(nil) : try Self.positive(&object, "maximumRadius", max: 20_000_000)
        }
        monitor.dwell = try object.bool("dwell") ?? monitor.dwell
        monitor.loiteringDelay = try Self.nonNegative(&object, "loiteringDelay", max: 31_622_400) ?? monitor.loiteringDelay
        if var authorization = try object.object("authorization") {
            var mix = AuthorizationMix()
            mix.whenInUse = try Self.nonNegative(&authorization, "whenInUse", max: 1) ?? 0
            mix.denied = try Self.nonNegative(&authorization, "denied", max: 1) ?? 0
            // Absent, `always` is the rest of the devices.
            mix.always = try Self.nonNegative(&authorization, "always", max: 1) ?? max(0, 1 - mix.whenInUse - mix.denied)
            guard mix.always + mix.whenInUse + mix.denied > 0 else {
                throw authorization.error("the shares must not all be 0", key: "always")
            }
            mix.foregroundSeconds = try Self.positive(&authorization, "foregroundSeconds", max: 31_622_400) ?? mix.foregroundSeconds
            mix.backgroundSeconds = try Self.positive(&authorization, "backgroundSeconds", max: 31_622_400) ?? mix.backgroundSeconds
            try authorization.finish()
            monitor.authorization = mix
        }
    }

    private mutating func readWebhook(_ object: inout JSONObjectReader) throws(InputError) {
        if let url = try object.string("url") {
            do {
                _ = try WebhookConfiguration(url: url)
            } catch {
                throw object.error("\(error)", key: "url")
            }
            webhookURL = url
        }
        if object.value("deadLetter") != nil { webhook.deadLetter = try object.string("deadLetter") }
        webhook.batchSize = try Self.integer(&object, "batchSize", in: 1...100_000) ?? webhook.batchSize
        webhook.concurrency = try Self.integer(&object, "concurrency", in: 1...256) ?? webhook.concurrency
        webhook.maxAttempts = try Self.integer(&object, "maxAttempts", in: 1...100) ?? webhook.maxAttempts
        webhook.linger = try Self.nonNegative(&object, "linger", max: 60) ?? webhook.linger
        webhook.timeout = try Self.positive(&object, "timeout", max: 3_600) ?? webhook.timeout
        webhook.gracePeriod = try Self.nonNegative(&object, "gracePeriod", max: 3_600) ?? webhook.gracePeriod
    }

    private mutating func readFilters(_ filters: inout JSONObjectReader) throws(InputError) {
        if filters.value("distance") != nil {
            self.filters.distanceFilter = try Self.positive(&filters, "distance", max: 1_000_000)
        }
        if filters.value("accuracy") != nil {
            self.filters.noiseAccuracy = try Self.positive(&filters, "accuracy", max: 100_000)
        }
        var coarse = LocationFilterSettings.SignificantChange()
        coarse.minimumDistance = try Self.positive(&filters, "significantChangeDistance", max: 1_000_000)
            ?? coarse.minimumDistance
        coarse.minimumInterval = try Self.nonNegative(&filters, "significantChangeInterval", max: 86_400)
            ?? coarse.minimumInterval
        if let on = try filters.bool("significantChange") {
            self.filters.significantChange = on ? coarse : nil
        }
    }

    private static func nonNegative(
        _ object: inout JSONObjectReader, _ key: String, max: Double
    ) throws(InputError) -> Double? {
        guard let value = try object.number(key) else { return nil }
        guard value.isFinite, value >= 0 else { throw object.error("must be ≥ 0", key: key) }
        guard value <= max else { throw object.error("must be ≤ \(Int(max))", key: key) }
        return value
    }

    private static func integer(
        _ object: inout JSONObjectReader, _ key: String, in range: ClosedRange<Int>
    ) throws(InputError) -> Int? {
        guard let value = try object.integer(key) else { return nil }
        guard range.contains(value) else {
            throw object.error("must be \(range.lowerBound)...\(range.upperBound)", key: key)
        }
        return value
    }

    private static func positive(
        _ object: inout JSONObjectReader, _ key: String, max: Double
    ) throws(InputError) -> Double? {
        guard let value = try object.number(key) else { return nil }
        guard value.isFinite, value > 0 else { throw object.error("must be > 0", key: key) }
        guard value <= max else { throw object.error("must be ≤ \(Int(max))", key: key) }
        return value
    }

    /// A `{"min": …, "max": …}` object.
    private static func range(
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
