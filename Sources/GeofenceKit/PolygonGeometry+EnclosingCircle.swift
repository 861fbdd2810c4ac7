import Foundation

extension PolygonGeometry {
    /// The smallest circle that encloses the polygon: what an app registers with a platform that monitors only
    /// circles (`monitor.polygons: "enclosingCircle"`), before it tests the polygon itself.
    ///
    /// Welzl's algorithm (randomised incremental, with a fixed seed, so the circle is the same on every run) on the
    /// vertices projected to a plane at the polygon's centre; the radius is then the largest geodesic distance from
    /// the circle's centre to any vertex or edge midpoint, plus 1 cm, so the circle encloses the polygon on the
    /// ellipsoid even where the plane is off (for polygons of hundreds of kilometres the circle is then a little
    /// larger than the smallest). `nil` for a polygon without vertices.
    public var enclosingCircle: CircleGeometry? {
        guard !latitudes.isEmpty else { return nil }
        let centreLatitude = (minLatitude + maxLatitude) / 2
        let centreLongitude = (minLongitude + maxLongitude) / 2
        let metresPerDegree = 111_195.0
        let scale = cos(centreLatitude * .pi / 180)
        var points = latitudes.indices.map { i in
            SIMD2((longitudes[i] - centreLongitude) * scale * metresPerDegree, (latitudes[i] - centreLatitude) * metresPerDegree)
        }
        var rng = SplitMix64(seed: 0x5EC0_C1C1E)
        points.shuffle(using: &rng)
        let disc = Self.smallestDisc(points)
        let latitude = min(90, max(-90, centreLatitude + disc.centre.y / metresPerDegree))
        var longitude = centreLongitude + (scale > 1e-9 ? disc.centre.x / (scale * metresPerDegree) : 0)
        longitude = (longitude + 180).truncatingRemainder(dividingBy: 360)
        longitude = (longitude < 0 ? longitude + 360 : longitude) - 180

        var radius = 0.0
        func include(_ pointLatitude: Double, _ pointLongitude: Double) {
            radius = max(
                radius,
                Geodesic.distance(latitude1: latitude, longitude1: longitude, latitude2: pointLatitude, longitude2: pointLongitude))
        }
        for ring in ringStarts.indices.dropLast() {
            let start = ringStarts[ring], end = ringStarts[ring + 1]
            for i in start..<end {
                let j = i + 1 < end ? i + 1 : start
                include(latitudes[i], longitudes[i])
                include((latitudes[i] + latitudes[j]) / 2, (longitudes[i] + longitudes[j]) / 2)
            }
        }
        return CircleGeometry(center: Coordinate(unchecked: latitude, longitude), radius: max(radius, 0) + 0.01)
    }

    /// Welzl's smallest enclosing disc of points on a plane (expected linear time for shuffled input).
    static func smallestDisc(_ points: [SIMD2<Double>]) -> (centre: SIMD2<Double>, radius: Double) {
        func contains(_ disc: (centre: SIMD2<Double>, radius: Double), _ p: SIMD2<Double>) -> Bool {
            let d = p - disc.centre
            return (d * d).sum().squareRoot() <= disc.radius * (1 + 1e-12) + 1e-9
        }
        func diameter(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> (centre: SIMD2<Double>, radius: Double) {
            let centre = (a + b) / 2
            let d = a - centre
            return (centre, (d * d).sum().squareRoot())
        }
        func circumcircle(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> (centre: SIMD2<Double>, radius: Double) {
            let bx = b.x - a.x, by = b.y - a.y, cx = c.x - a.x, cy = c.y - a.y
            let d = 2 * (bx * cy - by * cx)
            guard abs(d) > 1e-12 else {
                // Collinear: the disc on the two farthest points.
                var widest = diameter(a, b)
                for candidate in [diameter(a, c), diameter(b, c)] where candidate.radius > widest.radius {
                    widest = candidate
                }
                return widest
            }
            let b2 = bx * bx + by * by, c2 = cx * cx + cy * cy
            let centre = SIMD2(a.x + (cy * b2 - by * c2) / d, a.y + (bx * c2 - cx * b2) / d)
            let r = centre - a
            return (centre, (r * r).sum().squareRoot())
        }
        var disc = (centre: points[0], radius: 0.0)
        for i in points.indices where !contains(disc, points[i]) {
            disc = (points[i], 0)
            for j in 0..<i where !contains(disc, points[j]) {
                disc = diameter(points[i], points[j])
                for k in 0..<j where !contains(disc, points[k]) {
                    disc = circumcircle(points[i], points[j], points[k])
                }
            }
        }
        return disc
    }
}
