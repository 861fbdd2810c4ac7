import GeofenceKit

/// A shared catalog generated for the random walk, so that a catalog scenario needs no region file: `count`
/// circles spread uniformly over the walk's area, seeded (config `regions.catalog`).
public struct GeneratedCatalogConfiguration: Sendable, Equatable {
    public var count: Int
    /// Radii are drawn uniformly from this range (metres).
    public var radius: ClosedRange<Double>

    public init(count: Int = 10_000, radius: ClosedRange<Double> = 50...300) {
        self.count = count
        self.radius = radius
    }
}

extension SharedCatalog {
    /// The circles of a generated catalog over a walk's area: a function of the seed alone, numbered along the
    /// index (regions `catalog-0` … `catalog-K`).
    public static func generated(
        _ configuration: GeneratedCatalogConfiguration, center: Coordinate, areaRadius: Double, seed: UInt64
    ) -> SharedCatalog {
        var rng = SplitMix64(seed: seed, stream: 0, purpose: .generatedCatalog)
        let shapes = (0..<configuration.count).lazy.map { k -> (region: Int32, shape: CatalogIndex.Shape) in
            let centre = GeoMotion.offset(center.latitude, center.longitude, withinDisc: areaRadius, using: &rng)
            let radius = rng.uniform(configuration.radius)
            return (Int32(k), .circle(latitude: centre.latitude, longitude: centre.longitude, radius: radius))
        }
        return SharedCatalog(generated: CatalogIndex(shapes))
    }
}
