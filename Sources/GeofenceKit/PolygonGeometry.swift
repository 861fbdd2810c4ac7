/// A polygon or multipolygon on (lon, lat), tested with the even-odd rule. STUB.
public struct PolygonGeometry: Sendable {
    /// Polygons, each a list of rings (first outer, then holes), each ring a list of coordinates.
    public let polygons: [[[Coordinate]]]

    public init(polygons: [[[Coordinate]]]) {
        self.polygons = polygons
    }

    public func contains(latitude: Double, longitude: Double) -> Bool {
        var inside = false
        for polygon in polygons {
            for ring in polygon where ring.count > 1 {
                var j = ring.count - 1
                for i in 0..<ring.count {
                    let a = ring[i], b = ring[j]
                    if (a.latitude > latitude) != (b.latitude > latitude),
                        longitude < (b.longitude - a.longitude) * (latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
                    {
                        inside.toggle()
                    }
                    j = i
                }
            }
        }
        return inside
    }
}
