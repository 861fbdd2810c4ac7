/// One nearest-regions query in progress (``CatalogIndex/nearest(latitude:longitude:count:within:admitting:into:)``):
/// the regions found so far, kept sorted by (distance, region number), and the queue of boxes still to open, a
/// min-heap on their lower bound that starts with the root.
///
/// It works on its caller's buffers through pointers. The sorted list, not a heap, holds the regions found (their
/// positions in the index): a query takes about 45 of them, most into the first leaf's empty list, and it is read
/// out in order at the end.
struct NearestWalk {
    let wanted: Int
    /// What a region must beat: the wanted-th distance found, or the limit until that many are found.
    private(set) var worst: Double
    let limit: Double
    /// Regions found (at most `wanted`) and boxes queued.
    private(set) var found = 0
    private var pendingCount = 1

    /// - Parameter bound: a distance within which `wanted` regions are known to lie (`.infinity`: none known).
    init(wanted: Int, limit: Double, bound: Double = .infinity) {
        self.wanted = wanted
        self.limit = limit
        worst = min(limit, bound)
    }

    /// Walks until every box that could hold a nearer region is opened (`true`), or until the queue has no room
    /// for a box's children (`false`: the caller grows it and calls again).
    mutating func run(
        _ index: CatalogIndex, records: UnsafeBufferPointer<CatalogIndex.Record>,
        boxes: UnsafeBufferPointer<CatalogIndex.Box>, pending: UnsafeMutableBufferPointer<CatalogIndex.PendingBox>,
        distances: UnsafeMutableBufferPointer<Double>, positions: UnsafeMutableBufferPointer<Int32>,
        point: EarthCentredPoint, latitude: Double, longitude: Double, admitting admission: CatalogAdmission
    ) -> Bool {
        // The point rounded to `Float`, for the boxes' lower bounds (``CatalogIndex/Box/lowerBound(from:)``).
        let lanes = SIMD4(Float(point.x), Float(point.y), Float(point.z), 0)
        while pendingCount > 0 {
            if pending[0].bound > worst { pendingCount = 0; break }
            if pending[0].level > 0 && pendingCount + CatalogIndex.fanOut > pending.count { return false }
            let next = popNearest(pending)
            let level = Int(next.level), box = Int(next.box)
            if level == 0 {
                for position in box * CatalogIndex.leafSize..<min((box + 1) * CatalogIndex.leafSize, records.count) {
                    // Squared first: most entries are too far, and need no square root to say so.
                    let record = records[position]
                    let reach = worst + Double(abs(record.radius))
                    let dx = record.x - point.x, dy = record.y - point.y, dz = record.z - point.z
                    if reach < 0 || dx * dx + dy * dy + dz * dz > reach * reach { continue }
                    let distance = index.boundaryDistance(
                        record, at: position, from: point, latitude: latitude, longitude: longitude)
                    guard distance <= worst, index.fits(record, at: position, admission) else { continue }
                    insert(distance, position, records: records, distances: distances, positions: positions)
                }
                continue
            }
            let below = index.boxRange(ofLevel: level - 1)
            for child in box * CatalogIndex.fanOut..<min((box + 1) * CatalogIndex.fanOut, below.count) {
                // A lower bound, not the exact distance: the walk opens boxes in the order of any lower bound and
                // finds the same regions (a box opened a little earlier, or one more, changes no answer).
                let bound = boxes[below.lowerBound + child].lowerBound(from: lanes)
                if bound > worst { continue }
                push(CatalogIndex.PendingBox(bound: bound, level: Int32(level - 1), box: Int32(child)), pending)
            }
        }
        return true
    }

    /// Adds a box to the queue, a min-heap on the bound.
    @inline(__always)
    private mutating func push(_ item: CatalogIndex.PendingBox, _ heap: UnsafeMutableBufferPointer<CatalogIndex.PendingBox>) {
        var child = pendingCount
        pendingCount += 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard item.bound < heap[parent].bound else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = item
    }

    /// Takes the box of the smallest bound off the queue.
    @inline(__always)
    private mutating func popNearest(_ heap: UnsafeMutableBufferPointer<CatalogIndex.PendingBox>) -> CatalogIndex.PendingBox {
        let top = heap[0]
        pendingCount -= 1
        let last = heap[pendingCount]
        // The hole at the top sinks along its smaller children; `last` fills it where it fits.
        var parent = 0
        while true {
            let left = 2 * parent + 1
            if left >= pendingCount { break }
            let right = left + 1
            let smaller = right < pendingCount && heap[right].bound < heap[left].bound ? right : left
            if heap[smaller].bound >= last.bound { break }
            heap[parent] = heap[smaller]
            parent = smaller
        }
        heap[parent] = last
        return top
    }

    /// Takes the region at a position among the wanted nearest, in (distance, region number) order, dropping the
    /// last when full. Positions are kept (the region numbers are read only to break a tie).
    @inline(__always)
    private mutating func insert(
        _ distance: Double, _ position: Int, records: UnsafeBufferPointer<CatalogIndex.Record>,
        distances: UnsafeMutableBufferPointer<Double>, positions: UnsafeMutableBufferPointer<Int32>
    ) {
        let region = records[position].region
        if found == wanted {
            let last = found - 1
            guard distance < distances[last]
                || (distance == distances[last] && region < records[Int(positions[last])].region)
            else { return }
            found -= 1
        }
        var slot = found
        while slot > 0 && distances[slot - 1] > distance {
            distances[slot] = distances[slot - 1]
            positions[slot] = positions[slot - 1]
            slot -= 1
        }
        // Equal distances: the lower region number first.
        while slot > 0 && distances[slot - 1] == distance && records[Int(positions[slot - 1])].region > region {
            distances[slot] = distances[slot - 1]
            positions[slot] = positions[slot - 1]
            slot -= 1
        }
        distances[slot] = distance
        positions[slot] = Int32(position)
        found += 1
        if found == wanted { worst = min(limit, distances[wanted - 1]) }
    }
}
