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

    /// Files the regions in one pass, taking their ids in the same pass: the regions of a large file (200,000
    /// of them, 37 MB) are far larger than the caches, and each pass waits for memory, before the first sample.
    public init(regions: [Region]) {
        self.regions = regions
        var identifiers: [String] = []
        identifiers.reserveCapacity(regions.count)
        HugePages.advise(capacityOf: &identifiers)
        var everyDevice: [Int32] = []
        var byDevice: [ExactName: [Int32]] = [:]
        // Files list a device's regions together: a run of consecutive regions naming the same one device is
        // filed in the table once, as a range, when the run ends, instead of hashing the name for every region.
        var run: (device: ExactName, start: Int)?
        func file(_ run: (device: ExactName, start: Int)?, until end: Int) {
            guard let run else { return }
            byDevice[run.device, default: []].append(contentsOf: Int32(run.start)..<Int32(end))
        }
        for index in regions.indices {
            identifiers.append(regions[index].id)
            guard let devices = regions[index].devices else {
                file(run, until: index)
                run = nil
                everyDevice.append(Int32(index))
                continue
            }
            if devices.count == 1 {
                // The very list of the region before (a decoder shares one device's list among its regions): the
                // run's device, without comparing names.
                if run != nil, Self.sharesStorage(devices, regions[index - 1].devices) { continue }
                let device = ExactName(devices[0])
                if run?.device == device { continue }
                file(run, until: index)
                run = (device, index)
                continue
            }
            file(run, until: index)
            run = nil
            for device in Set(devices.map(ExactName.init)) { byDevice[device, default: []].append(Int32(index)) }
        }
        file(run, until: regions.count)
        self.identifiers = identifiers
        self.everyDevice = everyDevice
        self.byDevice = byDevice
    }

    /// Whether `list` and `other` are one array's storage, so the same elements.
    private static func sharesStorage(_ list: [String], _ other: [String]?) -> Bool {
        guard let other, list.count == other.count else { return false }
        return list.withUnsafeBufferPointer { left in
            other.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
        }
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
