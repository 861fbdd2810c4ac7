import GeofenceKit

/// Turns the monitors' dense device and region indices into the names a snapshot keeps, and back.
struct StateTranslation: Sendable {
    let deviceNames: DeviceNames
    let regionNames: RegionNames

    init(deviceNames: DeviceNames, regionNames: RegionNames) {
        self.deviceNames = deviceNames
        self.regionNames = regionNames
    }

    /// Listed region names by index, built only when a snapshot is restored (a run with a large regions file and
    /// no state never pays for it).
    private func makeRegionIndex() -> [ExactName: Int32] {
        guard case .listed(let names) = regionNames else { return [:] }
        return Dictionary(names.enumerated().map { (ExactName($1), Int32($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The index of a region name of this run, or `nil` when the run has no such region (`regionIndex`: from
    /// ``makeRegionIndex()``).
    private func region(named name: String, in regionIndex: [ExactName: Int32]) -> Int32? {
        switch regionNames {
        case .listed: return regionIndex[ExactName(name)]
        case .catalog:
            guard name.hasPrefix("catalog-"), let k = Int32(name.dropFirst(8)), k >= 0 else { return nil }
            return k
        case .generated(let perDevice): return Self.generatedRegion(named: name, perDevice: perDevice)
        }
    }

    /// The index of generated region `device-D/rK` (`D * perDevice + K`), read from its bytes — restoring a million
    /// devices reads twenty million names — or `nil` for any other text or an index out of range.
    static func generatedRegion(named name: String, perDevice: Int) -> Int32? {
        // A native string's bytes are contiguous; only a bridged one is copied first.
        if let index = name.utf8.withContiguousStorageIfAvailable({ generatedRegion(utf8: $0, perDevice: perDevice) }) {
            return index
        }
        return ContiguousArray(name.utf8).withUnsafeBufferPointer { generatedRegion(utf8: $0, perDevice: perDevice) }
    }

    /// ``generatedRegion(named:perDevice:)`` of a name's UTF-8 bytes.
    static func generatedRegion(utf8 bytes: UnsafeBufferPointer<UInt8>, perDevice: Int) -> Int32? {
        let prefix: StaticString = "device-"
        let prefixCount = prefix.utf8CodeUnitCount
        guard bytes.count > prefixCount else { return nil }
        for index in 0..<prefixCount where bytes[index] != prefix.utf8Start[index] { return nil }
        var offset = prefixCount
        // A whole number of 1 to 10 digits from `offset`, ended by `stop` (consumed) or, for nil, the name's end.
        func number(endedBy stop: UInt8?) -> Int? {
            var value = 0, digits = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if byte == stop { return digits > 0 ? value : nil }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 10 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
            return stop == nil && digits > 0 ? value : nil
        }
        guard let device = number(endedBy: UInt8(ascii: "/")), offset < bytes.count,
            bytes[offset] == UInt8(ascii: "r")
        else { return nil }
        offset += 1
        guard let k = number(endedBy: nil), k < perDevice else { return nil }
        let index = device * perDevice + k
        return index <= Int(Int32.max) ? Int32(index) : nil
    }

    func named(_ state: DeviceState, seq: UInt64 = 0) -> StateSnapshot.Device {
        StateSnapshot.Device(
            name: deviceNames.name(of: state.device), time: state.time, latitude: state.latitude,
            longitude: state.longitude,
            regions: state.regions.map {
                .init(
                    id: regionNames.name(of: $0.region), inside: $0.inside, pendingSince: $0.pendingSince,
                    dwellDue: $0.dwellDue, appInside: $0.appInside)
            },
            failed: state.failed.map { regionNames.name(of: $0) }, seq: seq, deliveredUntil: state.deliveredUntil,
            chosen: state.chosen,
            coverage: state.coverage.map { coverage in
                .init(
                    inside: coverage.inside.map { regionNames.name(of: $0) },
                    open: coverage.open.map { .init(id: regionNames.name(of: $0.region), kind: $0.kind, time: $0.time) })
            })
    }

    /// Writes the snapshot of a run of `configuration` to `path`: `devices` with their last event numbers, then
    /// the devices of the snapshot it continued from (`carrying`) that it has not seen, as they were — a stream's
    /// device that sent nothing this time, or a generated one this run does not simulate, keeps its state for the
    /// next run. Each device is named as it is written (``StateFile/write(profile:seed:partition:events:count:device:to:)``):
    /// the snapshot of a million devices is never held whole, by name or as bytes.
    func writeSnapshot(
        of configuration: SimulationConfiguration, devices: DeviceStates, sequences: [(device: Int32, seq: UInt64)],
        events: StateSnapshot.EventsFile?, carrying restored: RestoredDevices = .none, to path: String
    ) throws {
        let seq = Dictionary(sequences.lazy.map { ($0.device, $0.seq) }, uniquingKeysWith: { _, last in last })
        // The restored devices not seen, by position: each is decoded again only as it is written.
        let carried = restored.unseen(among: devices.count) { deviceNames.name(of: devices.device($0)) }
        try StateFile.write(
            profile: configuration.profile, seed: configuration.seed, partition: configuration.partition,
            events: events, count: devices.count + carried.count,
            device: { [self] index in
                index < devices.count
                    ? named(devices.state(index), seq: seq[devices.device(index)] ?? 0)
                    : restored.saved[carried[index - devices.count]]
            }, to: path)
    }

    /// Lookups of device index → its saved state, with this run's indices: for the monitors (`state`), for the
    /// coverage tracker (`coverage`: the device's side of the unlimited evaluation) and for the event encoder
    /// (`sequence`: the device's last event `seq`), sharing one index of the names.
    func lookups(_ restored: RestoredDevices) -> (
        state: MonitorState.StateLookup, coverage: @Sendable (Int32) -> CoverageState?,
        sequence: @Sendable (Int32) -> UInt64?
    ) {
        // Each device's position among the saved ones, by name; a device is decoded when it is looked up.
        let devices = restored.saved
        let byName = restored.positions
        let regionIndex = makeRegionIndex()
        let state: MonitorState.StateLookup = { [self] device in
            guard let index = byName[ExactName(deviceNames.name(of: device))] else { return nil }
            let saved = devices[index]
            return DeviceState(
                device: device, time: saved.time, latitude: saved.latitude, longitude: saved.longitude,
                regions: saved.regions.compactMap { region in
                    region.id.isEmpty ? nil : self.region(named: region.id, in: regionIndex).map {
                        DeviceState.Region(
                            region: $0, inside: region.inside, pendingSince: region.pendingSince,
                            dwellDue: region.dwellDue, appInside: region.appInside)
                    }
                },
                failed: saved.failed.compactMap { self.region(named: $0, in: regionIndex) }, deliveredUntil: saved.deliveredUntil,
                chosen: saved.chosen)
        }
        let coverage: @Sendable (Int32) -> CoverageState? = { [self] device in
            guard let index = byName[ExactName(deviceNames.name(of: device))], let saved = devices[index].coverage
            else { return nil }
            // Regions no longer in the catalog are forgotten.
            return CoverageState(
                inside: saved.inside.compactMap { self.region(named: $0, in: regionIndex) },
                open: saved.open.compactMap { transition in
                    self.region(named: transition.id, in: regionIndex).map {
                        CoverageState.Transition(region: $0, kind: transition.kind, time: transition.time)
                    }
                })
        }
        let sequence: @Sendable (Int32) -> UInt64? = { [deviceNames] device in
            byName[ExactName(deviceNames.name(of: device))].map(devices.sequence(at:))
        }
        return (state, coverage, sequence)
    }
}
