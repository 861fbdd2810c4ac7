extension PolygonGeometry {
    /// The distance in metres from a point to the nearest edge of any ring (outer or hole), on a local plane at
    /// the point: accurate to a fraction of a percent for the buffers and accuracy circles it serves (metres to a
    /// few kilometres), not for containment, which stays exact.
    public func boundaryDistance(latitude: Double, longitude: Double) -> Double {
        let scale = LocalScale(latitude: latitude)
        let kx = scale.metresPerDegreeLongitude
        let ky = scale.metresPerDegreeLatitude
        var nearest = Double.infinity
        for ring in 0..<(ringStarts.count - 1) {
            let start = ringStarts[ring]
            let end = ringStarts[ring + 1]
            guard end > start else { continue }
            var j = end - 1
            for i in start..<end {
                let ax = (longitudes[j] - longitude) * kx
                let ay = (latitudes[j] - latitude) * ky
                let bx = (longitudes[i] - longitude) * kx
                let by = (latitudes[i] - latitude) * ky
                let dx = bx - ax
                let dy = by - ay
                let length2 = dx * dx + dy * dy
                let t = length2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length2)) : 0
                let ex = ax + t * dx
                let ey = ay + t * dy
                nearest = min(nearest, ex * ex + ey * ey)
                j = i
            }
        }
        return nearest.squareRoot()
    }

    /// Half the smaller side of the bounding box, in metres: a size to compare buffers with.
    public var halfExtent: Double {
        let scale = LocalScale(latitude: (minLatitude + maxLatitude) / 2)
        let width = longitudeWidth * scale.metresPerDegreeLongitude
        let height = (maxLatitude - minLatitude) * scale.metresPerDegreeLatitude
        return min(width, height) / 2
    }
}
