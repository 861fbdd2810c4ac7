extension PolygonGeometry {
    /// The distance in metres from a point to the nearest boundary edge on a plane at the point: see
    /// ``planarBoundaryDistance(latitude:longitude:)`` for its error bound, and
    /// ``geodesicBoundaryDistance(latitude:longitude:)`` for the exact distance.
    public func boundaryDistance(latitude: Double, longitude: Double) -> Double {
        planarBoundaryDistance(latitude: latitude, longitude: longitude).distance
    }

    /// Half the smaller side of the bounding box, in metres: a size to compare buffers with.
    public var halfExtent: Double {
        let scale = LocalScale(latitude: (minLatitude + maxLatitude) / 2)
        let width = longitudeWidth * scale.metresPerDegreeLongitude
        let height = (maxLatitude - minLatitude) * scale.metresPerDegreeLatitude
        return min(width, height) / 2
    }
}
