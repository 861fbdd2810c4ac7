/// How a device chooses the regions it monitors from a shared catalog (the regions of a region file without
/// `devices`, or a generated catalog).
public enum SelectionStrategy: String, Sendable, CaseIterable {
    /// Register every catalog region in file order; past the slot limit they fail (`failed` events).
    case fileOrder
    /// Monitor the N catalog regions whose boundary is nearest (N = the slots the device's own regions leave),
    /// and choose again after moving ``SelectionSettings/refreshDistance`` metres, as apps do.
    case nearest
}

/// The selection strategy and when a device chooses again.
public struct SelectionSettings: Sendable, Equatable {
    public var strategy: SelectionStrategy
    /// Metres a device moves from where it last chose before it chooses again (significant-change updates wake an
    /// app after about 500 m).
    public var refreshDistance: Double
    /// Seconds after which a device chooses again even when it has not moved far; `nil`: never by time.
    public var refreshInterval: Double?
    /// Only regions whose boundary is within this many metres are candidates; `nil`: any distance.
    public var proximityRadius: Double?

    public init(
        strategy: SelectionStrategy = .fileOrder, refreshDistance: Double = 500, refreshInterval: Double? = nil,
        proximityRadius: Double? = nil
    ) {
        self.strategy = strategy
        self.refreshDistance = refreshDistance
        self.refreshInterval = refreshInterval
        self.proximityRadius = proximityRadius
    }
}

/// A catalog every device may monitor, held once in memory: its spatial index, and how one of its regions is
/// registered (identifier, notify flags, shape).
public struct SharedCatalog: Sendable {
    public let index: CatalogIndex
    /// The region with this number as a monitor registers it.
    public let region: @Sendable (Int32) -> MonitoredRegion
    /// Whether a region number belongs to the catalog (a restored device keeps only such regions as its choice).
    public let includes: @Sendable (Int32) -> Bool
    /// The region as a plain circle, when it is one (``MonitoredRegion/plainCircle``): a monitor registers it
    /// without compiling it.
    public let circle: @Sendable (Int32) -> MonitoredCircle?

    public init(
        index: CatalogIndex, region: @escaping @Sendable (Int32) -> MonitoredRegion,
        includes: @escaping @Sendable (Int32) -> Bool = { _ in true }
    ) {
        self.index = index
        self.region = region
        self.includes = includes
        circle = { region($0).plainCircle }
        circlesAreIndexCentres = false
    }

    /// Whether region k is the index's circle at tree position k, with default flags (a generated catalog).
    private let circlesAreIndexCentres: Bool

    /// Appends the regions as plain circles (``circle``), in order; `false` as soon as one is not (what was
    /// appended is then left to the caller to drop). A generated catalog's circles are read straight from the
    /// index's centres in one loop: a choice's twenty reads, each a cache miss in a catalog of a million, then
    /// wait on memory together instead of one after another behind a closure call each.
    func appendCircles(_ regions: [Int32], to circles: inout [MonitoredCircle]) -> Bool {
        guard circlesAreIndexCentres else {
            for region in regions {
                guard let circle = circle(region) else { return false }
                circles.append(circle)
            }
            return true
        }
        return index.centres.withUnsafeBufferPointer { centres in
            for region in regions {
                guard let circle = Self.circle(centres[Int(region)], id: region) else { return false }
                circles.append(circle)
            }
            return true
        }
    }

    /// The plain circle of region `id` from its centre record in the index; `nil` for a polygon (whose record is
    /// its bounding circle, with the radius negative).
    @inline(__always)
    private static func circle(_ centre: CatalogIndex.Circle, id: Int32) -> MonitoredCircle? {
        guard centre.radius > 0 else { return nil }
        return MonitoredCircle(id: id, latitude: centre.latitude, longitude: centre.longitude, radius: centre.radius)
    }

    /// A catalog whose regions are the index's own shapes with default flags, numbered in tree order (in place:
    /// an index handed over, not kept elsewhere, is renumbered without a copy of its records).
    public init(generated index: consuming CatalogIndex) {
        index.numberRegionsInTreeOrder()
        self.index = index
        let count = index.count
        self.includes = { $0 >= 0 && Int($0) < count }
        self.region = { [index] id in
            switch index.shape(ofTreePosition: Int(id)) {
            case .circle(let latitude, let longitude, let radius):
                MonitoredRegion(
                    id: id, geometry: .circle(CircleGeometry(center: Coordinate(unchecked: latitude, longitude), radius: radius)))
            case .polygon(let polygon):
                MonitoredRegion(id: id, geometry: .polygon(polygon))
            }
        }
        // Every region a device chooses is registered through this: its centre record, read directly (no shape
        // built, no polygon looked up for a circle).
        self.circle = { [centres = index.centres] id in Self.circle(centres[Int(id)], id: id) }
        circlesAreIndexCentres = true
    }
}
