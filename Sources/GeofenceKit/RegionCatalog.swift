/// The regions of a region file, and which of them each device monitors.
///
/// A region without a `devices` list is monitored by every device; one with a list only by those devices.
/// Either way a device registers its regions in file order, so the slot limit cuts off the same regions
/// on every run.
public struct RegionCatalog: Sendable {
    public let regions: [Region]
    private let compiled: [MonitoredRegion]
    private let everyDevice: [Int32]
    private let byDevice: [ExactName: [Int32]]

    public init(regions: [Region]) {
        self.regions = regions
        var everyDevice: [Int32] = []
        var byDevice: [ExactName: [Int32]] = [:]
        for (index, region) in regions.enumerated() {
            if let devices = region.devices {
                // Most regions name one device: no set is needed to list it once.
                let names = devices.count == 1 ? [ExactName(devices[0])] : Array(Set(devices.map(ExactName.init)))
                for device in names { byDevice[device, default: []].append(Int32(index)) }
            } else {
                everyDevice.append(Int32(index))
            }
        }
        self.everyDevice = everyDevice
        self.byDevice = byDevice
        compiled = regions.enumerated().map { index, region in
            MonitoredRegion(
                id: Int32(index), geometry: region.geometry, notifyOnEntry: region.notifyOnEntry,
                notifyOnExit: region.notifyOnExit, notifyOnDwell: region.notifyOnDwell,
                loiteringDelay: region.loiteringDelay, bufferDistance: region.bufferDistance,
                confirmationTime: region.confirmationTime,
                notificationResponsiveness: region.notificationResponsiveness, assumedInside: region.assumedInside)
        }
    }

    public var identifiers: [String] { regions.map(\.id) }

    /// The regions `device` monitors, in file order.
    public func regions(forDevice device: String) -> [MonitoredRegion] {
        guard let own = byDevice[ExactName(device)] else { return everyDevice.map { compiled[Int($0)] } }
        // Both lists are ascending: merge them to keep file order.
        var merged: [MonitoredRegion] = []
        merged.reserveCapacity(own.count + everyDevice.count)
        var i = 0
        var j = 0
        while i < own.count || j < everyDevice.count {
            if j == everyDevice.count || (i < own.count && own[i] < everyDevice[j]) {
                merged.append(compiled[Int(own[i])])
                i += 1
            } else {
                merged.append(compiled[Int(everyDevice[j])])
                j += 1
            }
        }
        return merged
    }

    /// The regions that list `device` in their `devices`, in file order: a device's own regions, which come
    /// before any region chosen from the shared catalog.
    public func ownRegions(forDevice device: String) -> [MonitoredRegion] {
        byDevice[ExactName(device)]?.map { compiled[Int($0)] } ?? []
    }

    /// How many regions have no `devices` list: the catalog every device may monitor.
    public var sharedCount: Int { everyDevice.count }

    /// Whether the region at `index` (file order) belongs to the shared catalog.
    public func isShared(_ index: Int32) -> Bool {
        index >= 0 && Int(index) < regions.count && regions[Int(index)].devices == nil
    }

    /// The shared catalog indexed for nearest-region queries; regions keep their file positions as numbers.
    public func sharedCatalog() -> SharedCatalog {
        let index = CatalogIndex(everyDevice.lazy.map { position -> (region: Int32, shape: CatalogIndex.Shape) in
            switch self.compiled[Int(position)].geometry {
            case .circle(let circle):
                (position, .circle(latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius))
            case .polygon(let polygon):
                (position, .polygon(polygon))
            }
        })
        let compiled = compiled, regions = regions
        return SharedCatalog(
            index: index, region: { compiled[Int($0)] },
            includes: { $0 >= 0 && Int($0) < regions.count && regions[Int($0)].devices == nil })
    }
}
