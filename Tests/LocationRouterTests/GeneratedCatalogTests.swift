import GeofenceKit
import Testing
@testable import LocationRouter

/// A generated catalog, drawn on every core, is the catalog one pass through its random stream draws.
@Suite struct GeneratedCatalogTests {
    @Test(arguments: [1, 5_000, 40_001])
    func theCatalogIsTheOneASinglePassDraws(count: Int) {
        let configuration = GeneratedCatalogConfiguration(count: count, radius: 25...150)
        let centre = Coordinate(unchecked: 25.0330, 121.5654)
        // Far enough that most circles are placed along geodesics, not on the plane.
        let catalog = SharedCatalog.generated(configuration, center: centre, areaRadius: 100_000, seed: 7)
        var rng = SplitMix64(seed: 7, stream: 0, purpose: .generatedCatalog)
        let shapes = (0..<count).map { k -> (region: Int32, shape: CatalogIndex.Shape) in
            let point = GeoMotion.offset(centre.latitude, centre.longitude, withinDisc: 100_000, using: &rng)
            return (Int32(k), .circle(latitude: point.latitude, longitude: point.longitude, radius: rng.uniform(25...150)))
        }
        var serial = CatalogIndex(shapes)
        serial.numberRegionsInTreeOrder()
        #expect(catalog.index.count == count)
        for position in 0..<count {
            guard case .circle(let latitude, let longitude, let radius) = catalog.index.shape(ofTreePosition: position),
                case .circle(let serialLatitude, let serialLongitude, let serialRadius) = serial.shape(ofTreePosition: position)
            else {
                Issue.record("region \(position) is not a circle")
                return
            }
            #expect(latitude == serialLatitude && longitude == serialLongitude && radius == serialRadius)
        }
    }
}
