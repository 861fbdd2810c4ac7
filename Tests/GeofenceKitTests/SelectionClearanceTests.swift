import Testing
@testable import GeofenceKit

/// The exact path's disc (``BoundaryClearance``) across a device's catalog choices: set at its first choice and
/// carried through every later one, it must never let a sample skip a boundary the device crossed.
@Suite struct SelectionClearanceTests {
    /// 400 circles of 20–80 m scattered over 2 km around the start, numbered by position.
    static let catalog: [(region: Int32, shape: CatalogIndex.Shape)] = {
        var rng = SplitMix64(seed: 7, stream: 0, purpose: 91)
        return (0..<400).map { k in
            let point = Geodesic.destination(
                latitude: CatalogSelectionTests.start.latitude, longitude: CatalogSelectionTests.start.longitude,
                bearing: rng.unit() * 360, distance: 2_000 * rng.unit().squareRoot())
            return (Int32(k), .circle(latitude: point.latitude, longitude: point.longitude, radius: 20 + 60 * rng.unit()))
        }
    }()

    /// Whether the point is inside region `region` of ``catalog``, by its geodesic distance.
    static func contains(_ region: Int32, _ point: (latitude: Double, longitude: Double)) -> Bool {
        guard case .circle(let latitude, let longitude, let radius) = catalog[Int(region)].shape else { return false }
        return CircleGeometry(center: Coordinate(unchecked: latitude, longitude), radius: radius)
            .contains(latitude: point.latitude, longitude: point.longitude)
    }

    /// A walk of 3,000 samples, 1–20 m apart, choosing the nearest 8 again every 60 m: at every sample, every
    /// monitored region's state is the device's true side of its boundary, and each change was reported.
    @Test func everyMonitoredRegionKnowsItsSideAtEverySample() {
        var state = CatalogSelectionTests.monitor(
            slots: 8, selection: SelectionSettings(strategy: .nearest, refreshDistance: 60),
            catalog: CatalogSelectionTests.catalog(Self.catalog))
        var rng = SplitMix64(seed: 11, stream: 0, purpose: 92)
        var point = CatalogSelectionTests.start
        var heading = 0.0
        var previous: [Int32: Bool] = [:]
        var enters = 0, exits = 0
        for second in 0..<3_000 {
            let events = CatalogSelectionTests.feed(&state, point, second: Int64(second))
            let regions = state.exportState().first?.regions ?? []
            #expect(regions.count == 8)
            for region in regions {
                #expect(region.inside == Self.contains(region.region, point), "region \(region.region) at second \(second)")
                // A region kept from the last sample that changed side reported it at this sample.
                if let before = previous[region.region], before != region.inside {
                    #expect(events.contains { $0.region == region.region && $0.kind == (region.inside ? .enter : .exit) })
                }
            }
            enters += events.filter { $0.kind == .enter }.count
            exits += events.filter { $0.kind == .exit }.count
            previous = Dictionary(uniqueKeysWithValues: regions.map { ($0.region, $0.inside) })
            // Wander: a new heading now and then, and back towards the start near the catalog's edge.
            heading += (rng.unit() - 0.5) * 60
            let fromStart = Geodesic.distance(
                latitude1: CatalogSelectionTests.start.latitude, longitude1: CatalogSelectionTests.start.longitude,
                latitude2: point.latitude, longitude2: point.longitude)
            if fromStart > 1_800 { heading += 180 }
            let next = Geodesic.destination(
                latitude: point.latitude, longitude: point.longitude, bearing: heading, distance: 1 + 19 * rng.unit())
            point = (next.latitude, next.longitude)
        }
        #expect(state.selectionSummary.refreshes > 100)
        #expect(enters > 50 && exits > 50)
    }
}
