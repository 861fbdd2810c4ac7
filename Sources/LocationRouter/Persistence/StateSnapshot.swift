import GeofenceKit
import GeofenceFormats

/// The monitored state of every device, by name, as `--state` writes it and reads it back.
///
/// The file is NDJSON: a header line, one line per device, and an end line that counts them, so a truncated file
/// is recognised as such:
/// ```
/// {"format":"location-router-state","version":1,"profile":"ios","seed":42,"partition":"0/1","devices":2,"events":{"path":"/data/events.ndjson","bytes":48213}}
/// {"device":"bus-17","time":1795248060500000,"lat":25.0478,"lon":121.5171,"regions":[{"id":"taipei-main","inside":true,"dwellDue":1795248360500000}],"failed":[],"seq":12}
/// {"end":true,"devices":2}
/// ```
/// Times are microseconds since the epoch, so they round-trip exactly. `events` (when events went to a file)
/// says how many bytes of that file hold exactly the events of these states; `seq` is the device's last event
/// number. `seed` and `partition` are the run's, which a run continuing from the snapshot must share. All four are
/// optional, so snapshots of earlier versions still read.
public struct StateSnapshot: Sendable, Equatable {
    public struct Device: Sendable, Equatable {
        public struct Region: Sendable, Equatable {
            public var id: String
            public var inside: Bool
            public var pendingSince: Int64?
            public var dwellDue: Int64?
            /// A polygon monitored through its enclosing circle: whether the app has the device inside the polygon.
            public var appInside: Bool?
        }

        public var name: String
        public var time: Int64
        public var latitude: Double
        public var longitude: Double
        public var regions: [Region]
        public var failed: [String]
        /// The device's last event `seq` (0: none yet).
        public var seq: UInt64 = 0
        /// With delivery delays: when its latest delayed event is delivered (microseconds).
        public var deliveredUntil: Int64?
        /// Under `nearest` selection: where and when the device last chose its catalog regions.
        public var chosen: DeviceState.Choice?
        /// With `--coverage`: the device in the catalog's unlimited evaluation.
        public var coverage: Coverage?

        /// ``CoverageState`` by region name.
        public struct Coverage: Sendable, Equatable {
            public struct Transition: Sendable, Equatable {
                public var id: String
                /// `enter` or `exit`.
                public var kind: EventKind
                /// Microseconds since the epoch.
                public var time: Int64

                public init(id: String, kind: EventKind, time: Int64) {
                    self.id = id
                    self.kind = kind
                    self.time = time
                }
            }

            /// The catalog regions the device is inside.
            public var inside: [String]
            /// Transitions no event caught yet, oldest first.
            public var open: [Transition]

            public init(inside: [String], open: [Transition]) {
                self.inside = inside
                self.open = open
            }
        }

        public init(
            name: String, time: Int64, latitude: Double, longitude: Double, regions: [Region], failed: [String],
            seq: UInt64 = 0, deliveredUntil: Int64? = nil, chosen: DeviceState.Choice? = nil, coverage: Coverage? = nil
        ) {
            self.deliveredUntil = deliveredUntil
            self.chosen = chosen
            self.coverage = coverage
            self.name = name
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            self.regions = regions
            self.failed = failed
            self.seq = seq
        }
    }

    /// The events file the states agree with: its resolved path and how many of its bytes hold their events.
    public struct EventsFile: Sendable, Equatable {
        public var path: String
        public var bytes: Int64

        public init(path: String, bytes: Int64) {
            self.path = path
            self.bytes = bytes
        }
    }

    public static let format = "location-router-state"
    public static let version = 1

    public var profile: String
    /// The seed and partition of the run that wrote it (`nil`: a snapshot of an earlier version, which kept neither).
    public var seed: UInt64?
    public var partition: Partition?
    /// Every device, decoded (a snapshot read from a file decodes them as they are asked for: see
    /// ``SavedDevices``).
    public var devices: [Device] {
        get { saved.all }
        set { saved = .decoded(newValue) }
    }
    var saved: SavedDevices
    public var events: EventsFile?

    public init(
        profile: String, seed: UInt64? = nil, partition: Partition? = nil, devices: [Device], events: EventsFile? = nil
    ) {
        self.profile = profile
        self.seed = seed
        self.partition = partition
        saved = .decoded(devices)
        self.events = events
    }

    init(profile: String, seed: UInt64?, partition: Partition?, saved: SavedDevices, events: EventsFile?) {
        self.profile = profile
        self.seed = seed
        self.partition = partition
        self.saved = saved
        self.events = events
    }

    public static func == (left: StateSnapshot, right: StateSnapshot) -> Bool {
        left.profile == right.profile && left.seed == right.seed && left.partition == right.partition
            && left.events == right.events && left.saved.count == right.saved.count && left.devices == right.devices
    }

    /// Reads a snapshot. - Throws: ``InputError`` naming the line and field of anything corrupt, truncated or
    /// written by an incompatible version.
    public static func decode(_ bytes: [UInt8]) throws(InputError) -> StateSnapshot {
        var splitter = LineSplitter(maxLineLength: 64 << 20)
        var lines: [(text: ArraySlice<UInt8>, number: Int)] = []
        for piece in splitter.lines(in: bytes) + splitter.finish() {
            guard case .line(let line, let number) = piece else {
                throw InputError("line too long for a snapshot", line: lines.count + 1)
            }
            if !line.isEmpty { lines.append((line, number)) }
        }
        guard let first = lines.first else { throw InputError("empty snapshot: no header line") }
        let headerValue: JSONValue
        do {
            headerValue = try parse(first.text)
        } catch {
            // A first line that is not JSON: another kind of file (a CSV, a config spread over lines).
            throw InputError(
                "not a LocationRouter state snapshot (its first line must be a header such as "
                    + "{\"format\":\"\(format)\",…}): \(error.message)", line: first.number)
        }
        let header = try Header(headerValue, line: first.number)
        // The device lines on every core, each decoded on its own and let go (only a few lines' devices are held at
        // a time: ``SavedDevices``); the first error in the file's order is the one reported.
        let deviceLines = lines.dropFirst().dropLast()
        let checked = ParallelFill.array(count: deviceLines.count, smallestPart: 1_024) {
            index -> Result<(name: String, seq: UInt64), InputError> in
            let (text, number) = deviceLines[deviceLines.startIndex + index]
            do throws(InputError) {
                let decoded = try text.withUnsafeBufferPointer { line throws(InputError) in try device(line: line) }
                return .success((decoded.name, decoded.seq))
            } catch {
                // Each line was parsed on its own: its values know only their column, not the file's line.
                var located = error
                located.line = number
                return .failure(located)
            }
        }
        var names: [String] = [], sequences: [UInt64] = []
        names.reserveCapacity(checked.count)
        sequences.reserveCapacity(checked.count)
        for result in checked {
            let (name, seq) = try result.get()
            names.append(name)
            sequences.append(seq)
        }
        // Every line but the last is a slice of `bytes` (only an unterminated last line is copied).
        let devices = DeviceLines(
            bytes: bytes, ranges: deviceLines.map { $0.text.startIndex..<$0.text.endIndex }, names: names,
            sequences: sequences)
        guard lines.count >= 2, let last = lines.last else {
            throw InputError("truncated snapshot: the end line is missing", line: first.number + 1)
        }
        let lastValue: JSONValue
        do {
            lastValue = try parse(last.text)
        } catch {
            var located = error
            located.line = last.number
            throw located
        }
        guard case .bool(true)? = lastValue["end"]?.kind else {
            throw InputError("truncated snapshot: the end line is missing", line: last.number + 1)
        }
        var end = try JSONObjectReader(lastValue, path: "")
        _ = try end.bool("end")
        let counted = try end.integer("devices")
        guard counted == names.count, header.devices == nil || header.devices == names.count else {
            throw InputError(
                "truncated or corrupt snapshot: \(names.count) device lines, but it says \(counted ?? header.devices ?? -1)",
                line: last.number, field: "devices")
        }
        return StateSnapshot(
            profile: header.profile, seed: header.seed, partition: header.partition, saved: .lines(devices),
            events: header.events)
    }

    /// A line's JSON, parsed where it lies in the file's bytes (not copied into an array of its own first).
    private static func parse(_ line: ArraySlice<UInt8>) throws(InputError) -> JSONValue {
        try line.withUnsafeBufferPointer { bytes throws(InputError) in try JSONParser.parse(bytes) }
    }

    /// A snapshot's first line.
    private struct Header {
        var profile: String
        var seed: UInt64?
        var partition: Partition?
        var devices: Int?
        var events: EventsFile?

        init(_ value: JSONValue, line: Int) throws(InputError) {
            var reader = try JSONObjectReader(value, path: "")
            guard try reader.string("format") == StateSnapshot.format else {
                throw InputError(
                    "not a LocationRouter state snapshot (format must be \"\(StateSnapshot.format)\")", line: line,
                    field: "format")
            }
            let version = try reader.integer("version")
            guard version == StateSnapshot.version else {
                throw InputError(
                    "snapshot version \(version.map(String.init) ?? "missing") is not supported (this is version \(StateSnapshot.version))",
                    line: line, field: "version")
            }
            profile = try reader.string("profile") ?? ""
            if let value = reader.value("seed") {
                guard let parsed = value.unsignedInteger else {
                    throw InputError("must be a whole number from 0 to 2⁶⁴ − 1", line: line, field: "seed")
                }
                seed = parsed
            }
            if let text = try reader.string("partition") {
                guard let parsed = Partition(parsing: text) else {
                    throw InputError(
                        "must be I/N with 0 ≤ I < N ≤ \(Partition.maximumCount)", line: line, field: "partition")
                }
                partition = parsed
            }
            devices = try reader.integer("devices")
            if let value = reader.value("events") {
                var events = try JSONObjectReader(value, path: "events")
                let path = try events.requiredValue("path").string(path: "events.path")
                let bytes = try events.requiredValue("bytes").integer(path: "events.bytes")
                guard bytes >= 0 else { throw value.error("must be ≥ 0", path: "events.bytes") }
                self.events = EventsFile(path: path, bytes: Int64(bytes))
            }
        }
    }

    /// A device line read the general way: parsed into a JSON tree, then read key by key.
    static func device(_ value: JSONValue) throws(InputError) -> Device {
        var reader = try JSONObjectReader(value, path: "")
        let name = try reader.requiredValue("device").string(path: "device")
        let time = try reader.requiredValue("time").integer(path: "time")
        let latitude = try reader.requiredValue("lat").number(path: "lat")
        let longitude = try reader.requiredValue("lon").number(path: "lon")
        do {
            _ = try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw value.error(error.description, path: error.field)
        }
        var regions: [Device.Region] = []
        for (index, entry) in (try reader.array("regions") ?? []).enumerated() {
            var region = try JSONObjectReader(entry, path: JSONValue.path("regions", index: index))
            let id = try region.requiredValue("id").string(path: region.path(of: "id"))
            let inside = try region.requiredValue("inside").bool(path: region.path(of: "inside"))
            let pending = try region.integer("pendingSince").map(Int64.init)
            let dwell = try region.integer("dwellDue").map(Int64.init)
            let appInside = try region.bool("appInside")
            try region.finish()
            regions.append(Device.Region(id: id, inside: inside, pendingSince: pending, dwellDue: dwell, appInside: appInside))
        }
        var failed: [String] = []
        for (index, entry) in (try reader.array("failed") ?? []).enumerated() {
            failed.append(try entry.string(path: JSONValue.path("failed", index: index)))
        }
        let seq = try reader.integer("seq") ?? 0
        let deliveredUntil = try reader.integer("deliveredUntil").map(Int64.init)
        var chosen: DeviceState.Choice?
        if let value = reader.value("chosen") {
            var choice = try JSONObjectReader(value, path: "chosen")
            let latitude = try choice.requiredValue("lat").number(path: "chosen.lat")
            let longitude = try choice.requiredValue("lon").number(path: "chosen.lon")
            let time = try choice.requiredValue("time").integer(path: "chosen.time")
            try choice.finish()
            do {
                _ = try Coordinate(latitude: latitude, longitude: longitude)
            } catch {
                throw value.error(error.description, path: "chosen")
            }
            chosen = DeviceState.Choice(latitude: latitude, longitude: longitude, time: Int64(time))
        }
        let coverage = try reader.value("coverage").map(Self.coverage)
        try reader.finish()
        return Device(
            name: name, time: Int64(time), latitude: latitude, longitude: longitude, regions: regions, failed: failed,
            seq: UInt64(max(0, seq)), deliveredUntil: deliveredUntil, chosen: chosen, coverage: coverage)
    }

    private static func coverage(_ value: JSONValue) throws(InputError) -> Device.Coverage {
        var reader = try JSONObjectReader(value, path: "coverage")
        var inside: [String] = []
        for (index, entry) in (try reader.array("inside") ?? []).enumerated() {
            inside.append(try entry.string(path: JSONValue.path("coverage.inside", index: index)))
        }
        var open: [Device.Coverage.Transition] = []
        for (index, entry) in (try reader.array("open") ?? []).enumerated() {
            var transition = try JSONObjectReader(entry, path: JSONValue.path("coverage.open", index: index))
            let id = try transition.requiredValue("id").string(path: transition.path(of: "id"))
            let kindValue = try transition.requiredValue("kind")
            let kindName = try kindValue.string(path: transition.path(of: "kind"))
            guard let kind = [EventKind.enter, .exit].first(where: { $0.description == kindName }) else {
                throw kindValue.error("must be \"enter\" or \"exit\"", path: transition.path(of: "kind"))
            }
            let time = try transition.requiredValue("time").integer(path: transition.path(of: "time"))
            try transition.finish()
            open.append(.init(id: id, kind: kind, time: Int64(time)))
        }
        try reader.finish()
        return Device.Coverage(inside: inside, open: open)
    }
}
