/// The regions of a region file, and which of them each device monitors.
///
/// A region without a `devices` list is monitored by every device; one with a list only by those devices.
/// Either way a device registers its regions in file order, so the slot limit cuts off the same regions
/// on every run.
public struct RegionCatalog: Sendable {
    public let regions: [Region]
    /// The regions' ids, in file order.
    public let identifiers: [String]
    private let everyDevice: [Int32]
    private let byDevice: [ExactName: [Int32]]

    /// Files `regions` in one pass (see ``Filing``). A loader that decodes them one by one builds the catalog as
    /// they arrive instead (``Builder``).
    public init(regions: [Region]) {
        var filing = Filing(expected: regions.count)
        for index in regions.indices { filing.file(id: regions[index].id, devices: regions[index].devices) }
        self.init(regions: regions, filing: filing)
    }

    init(regions: [Region], filing: consuming Filing) {
        let (identifiers, everyDevice, byDevice) = filing.finish()
        self.regions = regions
        self.identifiers = identifiers
        self.everyDevice = everyDevice
        self.byDevice = byDevice
    }

    /// The region at `index` (file order) as a monitor registers it. Made when a device registers it (on the
    /// pipeline's threads) rather than for the whole file up front: a file of 200,000 regions would otherwise
    /// copy them all once more, single-threaded, before the first sample.
    private func monitored(_ index: Int32) -> MonitoredRegion {
        let region = regions[Int(index)]
        return MonitoredRegion(
            id: index, geometry: region.geometry, notifyOnEntry: region.notifyOnEntry,
            notifyOnExit: region.notifyOnExit, notifyOnDwell: region.notifyOnDwell,
            loiteringDelay: region.loiteringDelay, bufferDistance: region.bufferDistance,
            confirmationTime: region.confirmationTime,
            notificationResponsiveness: region.notificationResponsiveness, assumedInside: region.assumedInside)
    }

    /// The regions `device` monitors, in file order.
    public func regions(forDevice device: String) -> [MonitoredRegion] {
        guard let own = byDevice[ExactName(device)] else { return everyDevice.map(monitored) }
        // Both lists are ascending: merge them to keep file order.
        var merged: [MonitoredRegion] = []
        merged.reserveCapacity(own.count + everyDevice.count)
        var i = 0
        var j = 0
        while i < own.count || j < everyDevice.count {
            if j == everyDevice.count || (i < own.count && own[i] < everyDevice[j]) {
                merged.append(monitored(own[i]))
                i += 1
            } else {
                merged.append(monitored(everyDevice[j]))
                j += 1
            }
        }
        return merged
    }

    /// The regions that list `device` in their `devices`, in file order: a device's own regions, which come
    /// before any region chosen from the shared catalog.
    public func ownRegions(forDevice device: String) -> [MonitoredRegion] {
        byDevice[ExactName(device)]?.map(monitored) ?? []
    }

    /// How many regions have no `devices` list: the catalog every device may monitor.
    public var sharedCount: Int { everyDevice.count }

    /// The shared catalog's regions, in file order.
    public var sharedRegions: some Collection<Region> { everyDevice.lazy.map { self.regions[Int($0)] } }

    /// Each device listed by a region, and how many regions list it (its own regions).
    public var ownRegionCounts: [(device: String, count: Int)] { byDevice.map { ($0.key.string, $0.value.count) } }

    /// Whether the region at `index` (file order) belongs to the shared catalog.
    public func isShared(_ index: Int32) -> Bool {
        index >= 0 && Int(index) < regions.count && regions[Int(index)].devices == nil
    }

    /// The shared catalog indexed for nearest-region queries; regions keep their file positions as numbers.
    public func sharedCatalog() -> SharedCatalog {
        let index = CatalogIndex(everyDevice.lazy.map { position -> (region: Int32, shape: CatalogIndex.Shape) in
            switch self.regions[Int(position)].geometry {
            case .circle(let circle):
                (position, .circle(latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius))
            case .polygon(let polygon):
                (position, .polygon(polygon))
            }
        })
        let catalog = self
        return SharedCatalog(
            index: index, region: { catalog.monitored($0) },
            includes: { $0 >= 0 && Int($0) < catalog.regions.count && catalog.regions[Int($0)].devices == nil })
    }
}
