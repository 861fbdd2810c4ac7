/// What a ``MonitorState`` keeps to choose each device's regions from a shared catalog: the catalog, the
/// strategy, each device's block of slots and where it last chose, and counts for the report.
struct CatalogSelection: Sendable {
    let catalog: SharedCatalog
    let settings: SelectionSettings

    // Per device row (grown with the state's rows).
    /// The device's own regions (from the region lookup): the first slots of its block, never swapped.
    var ownCount: [Int32] = []
    /// Slots the device's block holds: its own regions and the catalog regions it may monitor (N).
    var capacity: [Int32] = []
    /// A circle of `refreshDistance` around where the device last chose: it chooses again once outside.
    var anchor: [PackedRegion] = []
    var chosenAt: [Int64] = []
    var firstTime: [Int64] = []

    /// Slots reserved in blocks but not in use (a choice of fewer than N regions).
    var vacancies = 0
    /// Polygons of the catalog already in the monitor's polygon table, by region.
    var polygonIndex: [Int32: Int] = [:]
    var query = CatalogIndex.NearestRegions()

    /// Choices made after a device's first (its first is part of its registration).
    var refreshes = 0
    /// Regions registered and removed by those choices.
    var added = 0
    var removed = 0

    init(catalog: SharedCatalog, settings: SelectionSettings) {
        self.catalog = catalog
        self.settings = settings
    }

    mutating func grow(toInclude row: Int) {
        guard row >= ownCount.count else { return }
        let missing = row + 1 - ownCount.count
        ownCount.append(contentsOf: repeatElement(0, count: missing))
        capacity.append(contentsOf: repeatElement(0, count: missing))
        anchor.append(contentsOf: repeatElement(PackedRegion(polygonIndex: 0), count: missing))
        chosenAt.append(contentsOf: repeatElement(.min, count: missing))
        firstTime.append(contentsOf: repeatElement(.min, count: missing))
    }
}

/// What the selection did in one monitor (a shard), for the report's `selection` object.
public struct SelectionSummary: Sendable, Equatable {
    /// Choices made after the devices' first ones.
    public var refreshes = 0
    /// Regions those choices registered, and removed.
    public var added = 0
    public var removed = 0
    /// Simulated seconds over all devices, from each one's first sample to its last.
    public var deviceSeconds = 0.0

    public init(refreshes: Int = 0, added: Int = 0, removed: Int = 0, deviceSeconds: Double = 0) {
        self.refreshes = refreshes
        self.added = added
        self.removed = removed
        self.deviceSeconds = deviceSeconds
    }

    /// Regions swapped out per device and simulated hour (a swap: one region out for another in).
    public var swapsPerDeviceHour: Double { deviceSeconds > 0 ? Double(removed) / (deviceSeconds / 3600) : 0 }

    public static func + (a: SelectionSummary, b: SelectionSummary) -> SelectionSummary {
        SelectionSummary(
            refreshes: a.refreshes + b.refreshes, added: a.added + b.added, removed: a.removed + b.removed,
            deviceSeconds: a.deviceSeconds + b.deviceSeconds)
    }
}
