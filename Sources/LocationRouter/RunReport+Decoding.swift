import GeofenceKit
import GeofenceFormats

extension RunReport {
    /// Reads a JSON report (`--report`) back, with what a merge needs: counts, the latency histograms'
    /// buckets, the partition and the time windows. Thresholds are not read (a merge tests its own).
    /// - Throws: ``InputError`` naming the key that is missing or malformed; a report written before reports
    ///   carried `latencyBuckets` cannot be merged.
    public init(json bytes: [UInt8]) throws(InputError) {
        let json = try JSONParser.parse(bytes)
        // The report of a run that could not drain (a second signal, the drain timeout) holds its counts so far and
        // nothing else.
        if case .bool(false)? = json["complete"]?.kind {
            throw InputError(
                "a partial report (\"complete\": false: written when the run could not drain, after a second signal "
                    + "or the drain timeout) holds only the counts so far and cannot be merged; run that partition "
                    + "again, or pass the others with --allow-missing")
        }
        let root = ReportReader(json, path: "")
        func counts(_ key: String) throws(InputError) -> [String: Int] {
            var result: [String: Int] = [:]
            for member in try root.value(key).members(path: key) {
                result[member.key] = try member.value.integer(path: JSONValue.path(key, key: member.key))
            }
            return result
        }
        let accounting = try root.object("accounting")
        var errors: [InputError] = []
        for (index, value) in try root.value("inputErrors").array(path: "inputErrors").enumerated() {
            let error = ReportReader(value, path: JSONValue.path("inputErrors", index: index))
            errors.append(
                InputError(
                    try error.string("message"), file: try error.optionalString("file"),
                    line: try error.optionalInteger("line"), column: try error.optionalInteger("column")))
        }
        self.init(
            devices: try root.integer("devices"), regions: try root.integer("regions"),
            monitoredRegions: try root.integer("monitoredRegions"), samplesRead: try accounting.integer("samplesRead"),
            samples: try root.integer("samples"), filtered: try root.integer("filtered"),
            updates: try root.integer("updates"), wallSeconds: try root.number("wallSeconds"),
            simulatedSeconds: try root.number("simulatedSeconds"), events: try counts("events"),
            failures: try counts("failed"), suppressed: try counts("suppressed"),
            eventsEmitted: try root.integer("eventsEmitted"),
            notificationsDelivered: try root.integer("notificationsDelivered"), dropped: try root.integer("dropped"),
            rejected: try counts("rejected"), inputErrors: errors,
            latency: try root.object("latencyBuckets").histogram(),
            peakResidentBytes: try root.integer("peakResidentBytes"), shards: try root.integer("shards"),
            profile: try root.string("profile"), seed: try root.unsigned("seed"),
            backPressureWaits: try root.integer("backPressureWaits"),
            peakBatchesInFlight: try root.integer("peakBatchesInFlight"),
            batchCapacity: try root.integer("batchCapacity"), version: try root.string("version"), webhook: nil,
            interrupted: try root.value("interrupted").bool(path: "interrupted"))
        if let value = root.optional("webhook") {
            let reader = ReportReader(value, path: "webhook")
            var webhook = WebhookStatistics()
            webhook.delivered = try reader.integer("delivered")
            webhook.deliveredRequests = try reader.integer("deliveredRequests")
            webhook.retries = try reader.integer("retries")
            webhook.deadLettered = try reader.integer("deadLettered")
            webhook.failedRequests = try reader.integer("failedRequests")
            webhook.lost = try reader.integer("lost")
            webhook.lastFailure = try reader.optionalString("lastFailure")
            webhook.accepted = webhook.delivered + webhook.deadLettered + webhook.lost
            webhook.latency = try reader.object("latencyBuckets").histogram()
            self.webhook = webhook
        }
        sinkFailure = try root.optionalString("sinkFailure")
        stoppedBy = try root.optionalString("stoppedBy")
        if root.optional("snapshots") != nil {
            let reader = try root.object("snapshots")
            snapshots = (try reader.integer("saved"), try reader.integer("failed"))
        }
        try readCatalogAndDelivery(root)
        origin = try ReportOrigin(root)
    }

    /// `selection`, `coverage` and `delivery`, when the report has them: the counts a merge adds up.
    private mutating func readCatalogAndDelivery(_ root: ReportReader) throws(InputError) {
        if root.optional("selection") != nil {
            let reader = try root.object("selection")
            let name = try reader.string("strategy")
            guard let strategy = SelectionStrategy(rawValue: name) else {
                throw reader.value.error("unknown strategy \"\(name)\"", path: JSONValue.path("selection", key: "strategy"))
            }
            var summary = SelectionSummary(
                refreshes: try reader.integer("refreshes"), added: try reader.integer("added"),
                removed: try reader.integer("removed"))
            // Reports before `deviceSeconds` have the rate it makes (rounded): the device time follows from it.
            let swaps = try reader.number("swapsPerDeviceHour")
            summary.deviceSeconds = try reader.optionalNumber("deviceSeconds")
                ?? (swaps > 0 ? Double(summary.removed) / swaps * 3600 : 0)
            selection = SelectionReport(strategy: strategy, summary: summary)
        }
        if root.optional("coverage") != nil {
            let reader = try root.object("coverage")
            coverage = CoverageSummary(
                transitions: try reader.integer("transitions"), caught: try reader.integer("caught"),
                late: try reader.integer("late"), unmatched: try reader.integer("unmatched"))
        }
        if root.optional("delivery") != nil {
            let reader = try root.object("delivery")
            var delivery = DeliveryStatistics()
            delivery.delayed = try reader.integer("delayed")
            delivery.heldBack = try reader.integer("heldBack")
            // Reports before `delayBuckets` keep the counts; their delays cannot be merged.
            if reader.optional("delayBuckets") != nil { delivery.histogram = try reader.object("delayBuckets").histogram() }
            self.delivery = delivery
        }
    }
}

extension ReportOrigin {
    fileprivate init(_ root: ReportReader) throws(InputError) {
        self.init()
        let partition = try root.object("partition")
        let index = try partition.integer("index")
        let count = try partition.integer("count")
        guard let value = Partition(index: index, count: count) else {
            throw partition.value.error("must have 0 ≤ index < count ≤ \(Partition.maximumCount)", path: "partition")
        }
        self.partition = value
        configuration = try root.optionalString("configuration")
        let wall = try root.object("wallClock")
        wallStart = try wall.number("start")
        wallEnd = try wall.number("end")
        let times = try root.object("sampleTimes")
        firstSampleTime = try times.optionalTime("first")
        lastSampleTime = try times.optionalTime("last")
        regionsShared = try root.value("regionsShared").bool(path: "regionsShared")
        if root.optional("merged") != nil {
            let info = try root.object("merged")
            func indices(_ key: String) throws(InputError) -> [Int] {
                var result: [Int] = []
                for (index, value) in try info.value(key).array(path: "merged." + key).enumerated() {
                    result.append(try value.integer(path: JSONValue.path("merged." + key, index: index)))
                }
                return result
            }
            merged = MergeInfo(
                reports: try info.integer("reports"), partitions: try indices("partitions"),
                partitionCount: try info.integer("partitionCount"), missing: try indices("missing"))
        }
    }
}

/// Typed access to the keys of one object of a report, with errors naming the key path.
private struct ReportReader {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    func optional(_ key: String) -> JSONValue? {
        guard let found = value[key], !found.isNull else { return nil }
        return found
    }

    func value(_ key: String) throws(InputError) -> JSONValue {
        guard let found = value[key] else {
            throw value.error("missing key \"\(key)\" (a report of an older version cannot be merged)", path: path)
        }
        return found
    }

    func object(_ key: String) throws(InputError) -> ReportReader {
        let found = try value(key)
        _ = try found.members(path: JSONValue.path(path, key: key))
        return ReportReader(found, path: JSONValue.path(path, key: key))
    }

    func integer(_ key: String) throws(InputError) -> Int {
        try value(key).integer(path: JSONValue.path(path, key: key))
    }

    func number(_ key: String) throws(InputError) -> Double {
        try value(key).number(path: JSONValue.path(path, key: key))
    }

    func string(_ key: String) throws(InputError) -> String {
        try value(key).string(path: JSONValue.path(path, key: key))
    }

    func optionalString(_ key: String) throws(InputError) -> String? {
        try optional(key)?.string(path: JSONValue.path(path, key: key))
    }

    func optionalNumber(_ key: String) throws(InputError) -> Double? {
        try optional(key)?.number(path: JSONValue.path(path, key: key))
    }

    func optionalInteger(_ key: String) throws(InputError) -> Int? {
        try optional(key)?.integer(path: JSONValue.path(path, key: key))
    }

    func unsigned(_ key: String) throws(InputError) -> UInt64 {
        let found = try value(key)
        guard let result = found.unsignedInteger else {
            throw found.error("expected a whole number ≥ 0", path: JSONValue.path(path, key: key))
        }
        return result
    }

    func optionalTime(_ key: String) throws(InputError) -> Int64? {
        guard let text = try optionalString(key) else { return nil }
        guard let time = Timestamp(iso8601: text) else {
            throw value.error("expected an ISO-8601 time", path: JSONValue.path(path, key: key))
        }
        return time.microseconds
    }

    /// A histogram from `{"count","minNs","maxNs","buckets":[[lower,width,count],…]}`.
    func histogram() throws(InputError) -> LatencyHistogram {
        var buckets: [(lower: UInt64, width: UInt64, count: UInt64)] = []
        for (index, bucket) in try value("buckets").array(path: JSONValue.path(path, key: "buckets")).enumerated() {
            let bucketPath = JSONValue.path(JSONValue.path(path, key: "buckets"), index: index)
            let parts = try bucket.array(path: bucketPath)
            let numbers = parts.compactMap(\.unsignedInteger)
            guard numbers.count == 3, parts.count == 3 else {
                throw bucket.error("expected [lowerNs, widthNs, count]", path: bucketPath)
            }
            buckets.append((numbers[0], numbers[1], numbers[2]))
        }
        let count = try unsigned("count")
        guard
            let histogram = LatencyHistogram(
                buckets: buckets, minimum: try unsigned("minNs"), maximum: try unsigned("maxNs")),
            histogram.count == count
        else {
            throw value.error("buckets, count, minNs and maxNs do not agree", path: path)
        }
        return histogram
    }
}
