import GeofenceKit

/// How the configured source and regions turn into names and region lookups.
struct Wiring: Sendable {
    let source: SourceKind
    let deviceNames: DeviceNames
    let regionNames: RegionNames
    let lookup: MonitorState.RegionLookup
    private let definedRegions: Int?
    /// Regions generated per device (0 with a region file or a sample stream).
    let perDevice: Int
    /// How many devices there will be, when the source says in advance.
    let knownDevices: Int?

    init(configuration: SimulationConfiguration) {
        let catalog = configuration.regions.map { RegionCatalog(regions: $0) }
        definedRegions = catalog?.regions.count
        switch configuration.source {
        case .randomWalk(var walk):
            if catalog != nil { walk.regions.perDevice = 0 }
            knownDevices = walk.devices
            let plan = RandomWalkPlan(configuration: walk, seed: configuration.seed)
            source = .randomWalk(plan)
            deviceNames = .generated
            perDevice = walk.regions.perDevice
            (regionNames, lookup) = Self.generatedDeviceRegions(catalog, perDevice: perDevice, generate: plan.regions)
        case .playback(let traces, var playback):
            if catalog != nil { playback.regions.perDevice = 0 }
            knownDevices = playback.devices
            let plan = PlaybackPlan(traces: traces, configuration: playback, seed: configuration.seed)
            source = .playback(plan)
            deviceNames = .generated
            perDevice = playback.regions.perDevice
            (regionNames, lookup) = Self.generatedDeviceRegions(catalog, perDevice: perDevice, generate: plan.regions)
        case .samples(var input):
            let registry = DeviceRegistry()
            input.registry = registry
            source = .samples(input)
            deviceNames = .registry(registry)
            perDevice = 0
            knownDevices = nil
            let catalog = catalog ?? RegionCatalog(regions: [])
            regionNames = .listed(catalog.identifiers)
            lookup = { catalog.regions(forDevice: registry.name(of: $0)) }
        }
    }

    /// Regions of generated devices (`device-N`): the region file's when there is one, else generated per device.
    private static func generatedDeviceRegions(
        _ catalog: RegionCatalog?, perDevice: Int, generate: @escaping MonitorState.RegionLookup
    ) -> (RegionNames, MonitorState.RegionLookup) {
        guard let catalog else { return (.generated(perDevice: max(1, perDevice)), generate) }
        return (.listed(catalog.identifiers), { catalog.regions(forDevice: DeviceNames.generated.name(of: $0)) })
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

    /// Regions defined: the region file's, or those generated for the devices that took part.
    func regionCount(devices: Int) -> Int { definedRegions ?? devices * perDevice }
}
