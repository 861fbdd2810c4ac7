import Testing
@testable import GeofenceKit

/// The cheap bound that spares the refresh check its checked distance: whenever it says a position is surely
/// nearer than the refresh distance, the geodesic agrees — at the equator, near the poles and across the
/// antimeridian — and it says so for small moves, where it is meant to save work.
@Suite struct SelectionAnchorTests {
    /// The anchor a selection sets for a device that chose at this position.
    static func anchor(at latitude: Double, _ longitude: Double) -> CatalogSelection.Anchor {
        var selection = CatalogSelection(
            catalog: SharedCatalog(index: CatalogIndex([(region: Int32, shape: CatalogIndex.Shape)]())) { MonitoredRegion(id: $0, geometry: .circle(CircleGeometry(center: Coordinate(unchecked: 0, 0), radius: 1))) },
            settings: SelectionSettings(strategy: .nearest))
        selection.grow(toInclude: 0)
        selection.setAnchor(row: 0, latitude: latitude, longitude: longitude)
        return selection.rule.anchor[0]
    }

    @Test(arguments: [(0.0, 0.0), (25.033, 121.5654), (-63.5, -70.0), (89.9, 10.0), (-89.99, 179.999), (45.0, -179.995)])
    func surelyNearIsNeverWrong(anchorLatitude: Double, anchorLongitude: Double) {
        var rng = SplitMix64(seed: 5, stream: 0, purpose: 99)
        var saidNear = 0
        let anchor = Self.anchor(at: anchorLatitude, anchorLongitude)
        for refresh in [50.0, 500.0, 5_000.0] {
            for _ in 0..<2_000 {
                let distance = refresh * 1.2 * rng.unit()
                let point = Geodesic.destination(
                    latitude: anchorLatitude, longitude: anchorLongitude, bearing: rng.unit() * 360, distance: distance)
                guard anchor.isSurelyNear(latitude: point.latitude, longitude: point.longitude, distance: refresh)
                else { continue }
                saidNear += 1
                let actual = Geodesic.distance(
                    latitude1: anchorLatitude, longitude1: anchorLongitude, latitude2: point.latitude, longitude2: point.longitude)
                #expect(actual < refresh, "\(point) is \(actual) m from the anchor")
            }
        }
        // Away from the poles and the antimeridian most positions well inside the distance are recognised.
        if abs(anchorLatitude) < 80 && abs(anchorLongitude) < 179 { #expect(saidNear > 6_000 / 3) }
    }

    @Test func aPositionPastTheDistanceIsNeverSurelyNear() {
        let anchor = Self.anchor(at: 10, 20)
        let east = Geodesic.destination(latitude: 10, longitude: 20, bearing: 90, distance: 500.001)
        let north = Geodesic.destination(latitude: 10, longitude: 20, bearing: 0, distance: 500.001)
        #expect(!anchor.isSurelyNear(latitude: east.latitude, longitude: east.longitude, distance: 500))
        #expect(!anchor.isSurelyNear(latitude: north.latitude, longitude: north.longitude, distance: 500))
        let near = Geodesic.destination(latitude: 10, longitude: 20, bearing: 45, distance: 300)
        #expect(anchor.isSurelyNear(latitude: near.latitude, longitude: near.longitude, distance: 500))
    }
}
