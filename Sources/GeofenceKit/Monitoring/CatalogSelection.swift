import Foundation

/// What a ``MonitorState`` keeps to choose each device's regions from a shared catalog: the catalog, the
/// strategy, each device's block of slots and where it last chose, and counts for the report.
struct CatalogSelection: Sendable {
    let catalog: SharedCatalog
    /// Where and when each device last chose, and the settings: what decides its next choice.
    var rule: RefreshRule
    var settings: SelectionSettings { rule.settings }

    // Per device row (grown with the state's rows).
    /// The device's own regions (from the region lookup): the first slots of its block, never swapped.
    var ownCount: [Int32] = []
    /// Slots the device's block holds: its own regions and the catalog regions it may monitor (N).
    var capacity: [Int32] = []
    var firstTime: [Int64] = []

    /// Slots reserved in blocks but not in use (a choice of fewer than N regions).
    var vacancies = 0
    /// Polygons of the catalog already in the monitor's polygon table, by region.
    var polygonIndex: [Int32: Int] = [:]
    var query = CatalogIndex.NearestRegions()
    /// First choices answered before the run, when the caller knew where the devices start.
    var prepared: PreparedChoices?

    /// Choices made after a device's first (its first is part of its registration).
    var refreshes = 0
    /// Regions registered and removed by those choices.
    var added = 0
    var removed = 0

    init(catalog: SharedCatalog, settings: SelectionSettings) {
        self.catalog = catalog
        self.rule = RefreshRule(settings: settings)
    }

    /// Makes the device choose again once it is `settings.refreshDistance` from this position.
    mutating func setAnchor(row: Int, latitude: Double, longitude: Double) {
        rule.anchor[row] = Anchor(latitude: latitude, longitude: longitude, cosine: cos(latitude * .pi / 180))
    }

    /// The `wanted` nearest catalog regions at the position (only those `admission` accepts), in ascending region
    /// order, from the prepared answers when one was computed here, else from a query; records the device's anchor
    /// and time. A query walks first with a guess from the one before (the catalog's density changes slowly), and
    /// only when that does not hold `wanted` regions with `bound(point)`: a distance from the point (its
    /// Earth-centred position given) within which `wanted` catalog regions are known to lie (see
    /// ``CatalogIndex/nearest(latitude:longitude:point:count:within:admitting:guess:otherwise:into:)``).
    mutating func choose(
        row: Int, wanted: Int, latitude: Double, longitude: Double, time: Int64, admitting admission: CatalogAdmission,
        otherwise bound: (EarthCentredPoint) -> Double
    ) -> [Int32] {
        setAnchor(row: row, latitude: latitude, longitude: longitude)
        rule.chosenAt[row] = time
        guard wanted > 0 else { return [] }
        if prepared != nil {
            let taken = prepared!.take(
                row: row, latitude: latitude, longitude: longitude, wanted: wanted, into: &query.regions)
            // Dropped once every answer is used.
            if prepared!.left == 0 { prepared = nil }
            if taken { return query.regions }
        }
        let point = EarthCentredPoint(latitude: latitude, longitude: longitude)
        catalog.index.nearest(
            latitude: latitude, longitude: longitude, point: point, count: wanted,
            within: settings.proximityRadius ?? .infinity, admitting: admission,
            guess: CatalogIndex.guess(after: query, wanted: wanted), otherwise: { bound(point) }, into: &query)
        // Sorted in the query's own buffer (its order by distance is not needed here): no array allocated per choice.
        query.sortRegions()
        return query.regions
    }

    /// a²/b of WGS84, the largest radius of curvature, rounded up.
    static let polarRadius = 6_399_593.63

    /// Makes room for the device rows below `rows` (a monitor whose devices are known in advance), so that each
    /// device's first choice appends its row's fields without growing the arrays.
    mutating func reserveRows(_ rows: Int) {
        ownCount.reserveCapacity(rows)
        capacity.reserveCapacity(rows)
        rule.anchor.reserveCapacity(rows)
        rule.chosenAt.reserveCapacity(rows)
        firstTime.reserveCapacity(rows)
    }

    /// Gives every row up to `row` its fields (none chosen yet). Devices come row after row, so one element each
    /// is the common case: appended one by one, not through a generic `append(contentsOf:)` per array.
    mutating func grow(toInclude row: Int) {
        while row >= ownCount.count {
            ownCount.append(0)
            capacity.append(0)
            rule.anchor.append(Anchor(latitude: 0, longitude: 0, cosine: 0))
            rule.chosenAt.append(.min)
            firstTime.append(.min)
        }
    }
}

extension CatalogSelection {
    /// Where a device last chose its catalog regions, with the cosine of that latitude: what the refresh check reads
    /// at every sample (``RefreshRule/isDue(row:latitude:longitude:time:)``), in one 24-byte record (one cache line
    /// a sample, where a packed region and a separate array of cosines took two).
    struct Anchor: Sendable {
        var latitude: Double
        var longitude: Double
        var cosine: Double

        /// The anchor as a circle's centre, for the checked distance near the refresh distance (a packed region's
        /// centre is all that distance reads).
        var centre: PackedRegion { PackedRegion(latitude: latitude, longitude: longitude, radius: 0) }

        /// Whether the position is surely closer than `distance` to the anchor, by a bound that costs no
        /// trigonometry: the checked distance at every sample is then needed only near or past the refresh distance.
        ///
        /// The geodesic is no longer than the path along the anchor's meridian and then along the position's
        /// parallel: at most M·|Δφ| + N·cos φ·|Δλ|, where both radii of curvature are at most a²/b (the polar value)
        /// and cos φ ≤ cos φ₀ + |Δφ| on the way (|d cos φ / dφ| ≤ 1).
        @inline(__always)
        func isSurelyNear(latitude: Double, longitude: Double, distance: Double) -> Bool {
            let radians = Double.pi / 180
            let dLatitude = abs(latitude - self.latitude) * radians
            let dLongitude = abs(longitude - self.longitude) * radians
            guard dLongitude < 1 else { return false }
            let bound = CatalogSelection.polarRadius * (dLatitude + (cosine + dLatitude) * dLongitude)
            return bound * (1 + 1e-12) < distance
        }

        /// Whether a device that chose here at `chosenAt` chooses again at this sample: it has moved
        /// `refreshDistance` from here (at exactly that distance too), or `refreshInterval` has passed since. Called
        /// at every sample, so it reads scalars only, and the checked distance only where
        /// ``isSurelyNear(latitude:longitude:distance:)`` cannot tell.
        @inline(__always)
        func isDue(
            chosenAt: Int64, latitude: Double, longitude: Double, time: Int64, settings: SelectionSettings
        ) -> Bool {
            let refreshDistance = settings.refreshDistance
            if !isSurelyNear(latitude: latitude, longitude: longitude, distance: refreshDistance),
                centre.decideOnCentreDistance(latitude: latitude, longitude: longitude, { $0 >= refreshDistance })
            {
                return true
            }
            guard let interval = settings.refreshInterval else { return false }
            return time - chosenAt >= Int64(interval * 1e6)
        }
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
