/// The N regions nearest a point: a best-first walk of the tree that opens boxes in order of their lower bound
/// and stops when no closed box can hold a region nearer than the N-th found.
extension CatalogIndex {
    /// Buffers a query reuses, so that a monitor selects regions without allocating; the result is `regions`.
    public struct NearestRegions: Sendable {
        /// The regions found, nearest first (ties: lower region number first).
        public internal(set) var regions: [Int32] = []
        /// Their distances to the boundary in metres (negative inside), in the same order.
        public internal(set) var distances: [Double] = []
        /// Boxes waiting to be opened: a min-heap on the lower bound.
        var queue: [(bound: Double, level: Int32, box: Int32)] = []
        /// The best found so far: a max-heap on (distance, region), so the worst is on top.
        var best: [(distance: Double, region: Int32)] = []

        public init() {}

        /// Sorts `regions` by region number (and `distances` no longer match them).
        mutating func sortRegions() {
            regions.sort()
            distances.removeAll(keepingCapacity: true)
        }
    }

    /// The distance from the point to an entry's boundary, negative inside: for a circle the straight-line
    /// distance to its centre minus its radius (within a millimetre of the geodesic up to 15 km), for a polygon
    /// the distance to its nearest edge.
    @inline(__always)
    func boundaryDistance(
        _ record: Record, at position: Int, from point: EarthCentredPoint, latitude: Double, longitude: Double
    ) -> Double {
        if record.radius > 0 { return record.point.distance(to: point) - Double(record.radius) }
        guard let polygon = polygons[Int32(position)] else { return .infinity }
        let distance = polygon.boundaryDistance(latitude: latitude, longitude: longitude)
        return polygon.contains(latitude: latitude, longitude: longitude) ? -distance : distance
    }

    /// Finds the `count` regions whose boundary is nearest the point (distance to the boundary, negative inside),
    /// among those within `limit` metres of it and no larger than `maximumRadius` (a circle's radius, a polygon's
    /// ``PolygonGeometry/halfExtent``: the regions a platform would refuse are never chosen).
    ///
    /// The result is the same whatever the tree's shape: the `count` smallest (distance, region number) pairs.
    public func nearest(
        latitude: Double, longitude: Double, count wanted: Int, within limit: Double = .infinity,
        maximumRadius: Double? = nil, into result: inout NearestRegions
    ) {
        result.queue.removeAll(keepingCapacity: true)
        result.best.removeAll(keepingCapacity: true)
        result.regions.removeAll(keepingCapacity: true)
        result.distances.removeAll(keepingCapacity: true)
        guard wanted > 0, let root = levels.last?.first else { return }
        let point = EarthCentredPoint(latitude: latitude, longitude: longitude)
        // The bound a region must beat: the wanted-th best so far, or the limit until that many are found.
        var worst = limit
        let rootBound = root.distance(to: point) - Double(root.maxRadius)
        if rootBound <= limit { Self.push(&result.queue, (rootBound, Int32(levels.count - 1), 0)) }
        while let (bound, level, box) = Self.popMin(&result.queue) {
            if bound > worst { break }
            let first = Int(box) * (level == 0 ? Self.leafSize : Self.fanOut)
            if level == 0 {
                records.withUnsafeBufferPointer { records in
                    for position in first..<min(first + Self.leafSize, records.count) {
                        // Squared first: most entries are too far, and need no square root to say so.
                        let record = records[position]
                        let reach = worst + Double(abs(record.radius))
                        let dx = record.x - point.x, dy = record.y - point.y, dz = record.z - point.z
                        if reach < 0 || dx * dx + dy * dy + dz * dz > reach * reach { continue }
                        let distance = boundaryDistance(
                            record, at: position, from: point, latitude: latitude, longitude: longitude)
                        guard distance <= worst, fits(record, at: position, maximumRadius) else { continue }
                        Self.offer((distance, record.region), to: &result.best, keeping: wanted)
                        if result.best.count == wanted { worst = min(limit, result.best[0].distance) }
                    }
                }
            } else {
                levels[Int(level) - 1].withUnsafeBufferPointer { below in
                    for child in first..<min(first + Self.fanOut, below.count) {
                        let reach = worst + Double(below[child].maxRadius)
                        let squared = below[child].squaredDistance(to: point)
                        if reach < 0 || squared > reach * reach { continue }
                        let childBound = squared.squareRoot() - Double(below[child].maxRadius)
                        Self.push(&result.queue, (childBound, level - 1, Int32(child)))
                    }
                }
            }
        }
        // Nearest first: the max-heap gives up its worst first, written from the back.
        let found = result.best.count
        result.regions.append(contentsOf: repeatElement(0, count: found))
        result.distances.append(contentsOf: repeatElement(0, count: found))
        for slot in stride(from: found - 1, through: 0, by: -1) {
            let (distance, region) = Self.removeWorst(&result.best)
            result.regions[slot] = region
            result.distances[slot] = distance
        }
    }

    /// Whether the entry is no larger than `maximumRadius`.
    private func fits(_ record: Record, at position: Int, _ maximumRadius: Double?) -> Bool {
        guard let maximumRadius else { return true }
        if record.radius > 0 { return centres[position].radius <= maximumRadius }
        return (polygons[Int32(position)]?.halfExtent ?? 0) <= maximumRadius
    }

    // MARK: Heaps

    private static func push(_ heap: inout [(bound: Double, level: Int32, box: Int32)], _ item: (Double, Int32, Int32)) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].bound < heap[parent].bound else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func popMin(_ heap: inout [(bound: Double, level: Int32, box: Int32)]) -> (Double, Int32, Int32)? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap.withUnsafeMutableBufferPointer { heap in
                // The hole at the top sinks along its smaller children; `last` fills it where it fits.
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = left
                    if left >= heap.count { break }
                    if right < heap.count && heap[right].bound < heap[left].bound { smallest = right }
                    if heap[smallest].bound >= last.bound { break }
                    heap[parent] = heap[smallest]
                    parent = smallest
                }
                heap[parent] = last
            }
        }
        return (top.bound, top.level, top.box)
    }

    /// Keeps the `wanted` smallest pairs in a max-heap.
    private static func offer(
        _ item: (distance: Double, region: Int32), to heap: inout [(distance: Double, region: Int32)], keeping wanted: Int
    ) {
        if heap.count == wanted {
            guard worse(heap[0], item) else { return }
            heap[0] = item
            siftDown(&heap)
            return
        }
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard worse(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes the worst pair off the max-heap.
    private static func removeWorst(_ heap: inout [(distance: Double, region: Int32)]) -> (distance: Double, region: Int32) {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(&heap)
        }
        return top
    }

    @inline(__always)
    private static func worse(_ a: (distance: Double, region: Int32), _ b: (distance: Double, region: Int32)) -> Bool {
        a.distance > b.distance || (a.distance == b.distance && a.region > b.region)
    }

    private static func siftDown(_ heap: inout [(distance: Double, region: Int32)]) {
        heap.withUnsafeMutableBufferPointer { heap in
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < heap.count && worse(heap[left], heap[largest]) { largest = left }
                if right < heap.count && worse(heap[right], heap[largest]) { largest = right }
                if largest == parent { break }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
    }
}
