/// The regions that contain a point: a walk down the boxes that could hold a region reaching the point.
extension CatalogIndex {
    /// Appends to `regions` the number of every region that contains the point (the boundary is inside), in
    /// ascending order of region number.
    ///
    /// Decides as the monitors do: a circle by its geodesic distance (``CircleGeometry/contains(latitude:longitude:)``
    /// wherever the straight-line distance leaves any doubt), a polygon by ``PolygonGeometry/contains(latitude:longitude:)``.
    /// - Parameter stack: a buffer the walk reuses.
    public func regionsContaining(
        latitude: Double, longitude: Double, into found: inout [Int32], stack: inout [(level: Int32, box: Int32)]
    ) {
        guard let root = boxes.last else { return }
        let start = found.count
        let point = EarthCentredPoint(latitude: latitude, longitude: longitude)
        stack.removeAll(keepingCapacity: true)
        // A millimetre of slack on every straight-line test: the exact decision comes after.
        let slack = 0.001
        if root.distance(to: point) <= Double(root.maxRadius) + slack { stack.append((Int32(levelCount - 1), 0)) }
        while let (level, box) = stack.popLast() {
            let first = Int(box) * (level == 0 ? Self.leafSize : Self.fanOut)
            if level == 0 {
                for position in first..<min(first + Self.leafSize, count) {
                    let record = records[position]
                    let dx = record.x - point.x, dy = record.y - point.y, dz = record.z - point.z
                    let reach = Double(abs(record.radius)) + slack
                    if dx * dx + dy * dy + dz * dz > reach * reach { continue }
                    let chord = (dx * dx + dy * dy + dz * dz).squareRoot()
                    if contains(position, chord: chord, latitude: latitude, longitude: longitude) {
                        found.append(record.region)
                    }
                }
            } else {
                let below = boxRange(ofLevel: Int(level) - 1)
                for child in first..<min(first + Self.fanOut, below.count) {
                    let candidate = boxes[below.lowerBound + child]
                    guard candidate.distance(to: point) <= Double(candidate.maxRadius) + slack else { continue }
                    stack.append((level - 1, Int32(child)))
                }
            }
        }
        found[start...].sort()
    }

    /// Whether the entry contains the point, `chord` metres from its centre in a straight line.
    private func contains(_ position: Int, chord: Double, latitude: Double, longitude: Double) -> Bool {
        let radius = centres[position].radius
        guard radius > 0 else {
            return polygons[Int32(position)]?.contains(latitude: latitude, longitude: longitude) ?? false
        }
        // The geodesic is at least the chord and at most a known excess longer: only a band of about a millimetre
        // around the boundary needs the monitors' own decision.
        if chord > radius + 0.001 { return false }
        if chord + EarthCentredPoint.geodesicExcess(chord: chord) < radius - 0.001 { return true }
        let circle = CircleGeometry(
            center: Coordinate(unchecked: centres[position].latitude, centres[position].longitude), radius: radius)
        return circle.contains(latitude: latitude, longitude: longitude)
    }
}
