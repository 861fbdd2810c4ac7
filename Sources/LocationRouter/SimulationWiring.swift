import GeofenceKit

/// How the configured source and regions turn into names and region lookups.
struct Wiring: Sendable {
    let source: SourceKind
    let deviceNames: DeviceNames
    let regionNames: RegionNames
    let lookup: MonitorState.RegionLookup
    /// The same regions as plain circles handed over one by one, where they are generated circles: what the
    /// monitors register from (no region compiled, no array per device).
    let circles: MonitorState.PositionedCircleLookup?
    /// The same circles generated around the position a device registers at, for a random walk: right only when
    /// that position is the device's start, i.e. its first sample reaches the monitor unfiltered and no saved state
    /// is restored (``Simulation`` decides). Saves computing each start a second time.
    let circlesAtStarts: MonitorState.PositionedCircleLookup?
    private let definedRegions: Int?
    /// Regions generated per device (0 with a region file or a sample stream).
    let perDevice: Int
    /// How many devices there will be, when the source says in advance.
    let knownDevices: Int?
    /// The shared catalog, indexed, when devices choose from it (`nearest`) or coverage evaluates it.
    let catalog: SharedCatalog?
    /// Whether a region number belongs to the shared catalog.
    let isCatalogRegion: @Sendable (Int32) -> Bool

    init(configuration: SimulationConfiguration) {
        let file = configuration.regionCatalog
        definedRegions = file?.regions.count
        let nearest = configuration.selection.strategy == .nearest
        let indexed = nearest || configuration.coverage
        var catalog = indexed && (file?.sharedCount ?? 0) > 0 ? file?.sharedCatalog() : nil
        isCatalogRegion = { [file] in file?.isShared($0) ?? true }
        /// A generated device's regions from the file: its own and, unless it chooses, the catalog in file order.
        var fromFile: MonitorState.RegionLookup?
        var circles: MonitorState.PositionedCircleLookup?
        var circlesAtStarts: MonitorState.PositionedCircleLookup?
        if let file {
            if nearest {
                fromFile = { file.ownRegions(forDevice: DeviceNames.generated.name(of: $0)) }
            } else {
                fromFile = { file.regions(forDevice: DeviceNames.generated.name(of: $0)) }
            }
        }
        switch configuration.source {
        case .randomWalk(var walk):
            let generated = file == nil ? walk.catalog : nil
            if file != nil || generated != nil { walk.regions.perDevice = 0 }
            knownDevices = walk.devices
            let plan = RandomWalkPlan(configuration: walk, seed: configuration.seed)
            source = .randomWalk(plan)
            deviceNames = .generated
            perDevice = walk.regions.perDevice
            if let generated {
                let shared = SharedCatalog.generated(
                    generated, center: walk.center, areaRadius: walk.areaRadius, seed: configuration.seed)
                catalog = shared
                regionNames = .catalog
                // fileOrder: every device registers the whole catalog in order (past the slot limit, `failed`).
                let count = Int32(generated.count)
                if nearest {
                    lookup = { _ in [] }
                } else {
                    lookup = { _ in (0..<count).map { shared.region($0) } }
                }
            } else if let file, let fromFile {
                (regionNames, lookup) = (.listed(file.identifiers), fromFile)
            } else {
                (regionNames, lookup) = (.generated(perDevice: max(1, perDevice)), plan.regions)
                circles = { device, _, _, circles in plan.circles(ofDevice: device, into: &circles) }
                circlesAtStarts = { device, latitude, longitude, circles in
                    plan.circles(ofDevice: device, startingAt: latitude, longitude, into: &circles)
                }
            }
        case .playback(let traces, var playback):
            if file != nil { playback.regions.perDevice = 0 }
            knownDevices = playback.devices
            let plan = PlaybackPlan(traces: traces, configuration: playback, seed: configuration.seed)
            source = .playback(plan)
            deviceNames = .generated
            perDevice = playback.regions.perDevice
            if let file, let fromFile {
                (regionNames, lookup) = (.listed(file.identifiers), fromFile)
            } else {
                (regionNames, lookup) = (.generated(perDevice: max(1, perDevice)), plan.regions)
                circles = { device, _, _, circles in plan.circles(ofDevice: device, into: &circles) }
            }
        case .samples(var input):
            let registry = DeviceRegistry()
            input.registry = registry
            source = .samples(input)
            deviceNames = .registry(registry)
            perDevice = 0
            knownDevices = nil
            let file = file ?? RegionCatalog(regions: [])
            regionNames = .listed(file.identifiers)
            if nearest {
                lookup = { file.ownRegions(forDevice: registry.name(of: $0)) }
            } else {
                lookup = { file.regions(forDevice: registry.name(of: $0)) }
            }
        }
        self.catalog = catalog
        self.circles = circles
        self.circlesAtStarts = circlesAtStarts
    }

    /// Regions defined: the region file's, the generated catalog's, or those generated for the devices that took
    /// part.
    func regionCount(devices: Int) -> Int {
        if let definedRegions { return definedRegions }
        if case .catalog = regionNames, let catalog { return catalog.index.count }
        return devices * perDevice
    }

    /// The delivery-delay key of a (device, region) pair where indices are not stable across restarts — a sample
    /// stream numbers its devices as they come — from their names (FNV-1a); `nil` for generated devices.
    var deliveryKey: (@Sendable (Int32, Int32) -> UInt64)? {
        guard case .registry = deviceNames else { return nil }
        return { [deviceNames, regionNames] device, region in
            let deviceHash = Partition.stableHash(deviceNames.name(of: device))
            return deviceHash ^ (Partition.stableHash(regionNames.name(of: region)) &* 0x9E37_79B9_7F4A_7C15)
        }
    }
}
