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
        let stream = SplitMix64(seed: seed, stream: 0, purpose: .generatedCatalog)
        let radii = configuration.radius
        // Every centre moves from the walk's centre: its plane and its reduced latitude are computed once.
        let start = Geodesic.DirectStart(latitude: center.latitude, longitude: center.longitude)
        let scale = LocalScale(latitude: center.latitude)
        // Circle k is drawn from the stream's numbers 3k to 3k + 2 (a distance, a bearing, a radius): every circle
        // is computed on its own, on every core, and the catalog is the one a single pass through the stream makes.
        let circles = ParallelFill.array(count: configuration.count) { k in
            var rng = stream
            rng.skip(3 * k)
            let centre = GeoMotion.offset(from: start, scale: scale, withinDisc: areaRadius, using: &rng)
            return CatalogIndex.Circle(latitude: centre.latitude, longitude: centre.longitude, radius: rng.uniform(radii))
        }
        return SharedCatalog(generated: CatalogIndex(circles: circles))
    }
}

extension RandomWalkPlan {
    /// Where the devices `first, first + stride, …` start (their first sample's position), each with its row in a
    /// monitor of that stride: what ``MonitorState/prepareFirstChoices(at:)`` takes, so that the devices' first
    /// choices from a catalog are answered together before the run.
    func starts(first: Int, stride: Int) -> [(row: Int, latitude: Double, longitude: Double)] {
        let devices = Swift.stride(from: first, to: configuration.devices, by: stride).map { Int32($0) }
        return ParallelFill.array(count: devices.count) { [self] k in
            let start = self.start(ofDevice: devices[k])
            return (Int(devices[k]) / stride, start.latitude, start.longitude)
        }
    }
}
