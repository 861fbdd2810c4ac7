/// The N regions nearest a point: a best-first walk of the tree (``NearestWalk``) that opens boxes in order of
/// their lower bound and stops when no box left can hold a region nearer than the N-th found.
extension CatalogIndex {
    /// Buffers a query reuses, so that a monitor selects regions without allocating; the result is `regions`.
    public struct NearestRegions: Sendable {
        /// The regions found, nearest first (ties: lower region number first).
        public internal(set) var regions: [Int32] = []
        /// Their distances to the boundary in metres (negative inside), in the same order.
        public internal(set) var distances: [Double] = []
        /// Their positions in the index (tree order), in the same order: what the walk keeps, and what a batch
        /// measures again from its next point for a starting bound.
        var positions: [Int32] = []
        /// Boxes waiting to be opened: the walk's min-heap on the lower bound.
        var pending: [PendingBox] = []

        public init() {}

        /// Sorts `regions` by region number (and `distances` and `positions` no longer match them).
        mutating func sortRegions() {
            regions.sort()
        }

        /// Gives the three buffers `count` places: the first ones keep what they held, new ones are zero (a query
        /// writes every place it reads). Once every query asks for the same number, this only compares counts.
        @inline(__always)
        mutating func setCount(_ count: Int) {
            Self.setCount(&regions, count, 0)
            Self.setCount(&distances, count, 0)
            Self.setCount(&positions, count, 0)
        }

        @inline(__always)
        private static func setCount<T>(_ buffer: inout [T], _ count: Int, _ zero: T) {
            if buffer.count > count {
                buffer.removeLast(buffer.count - count)
            } else if buffer.count < count {
                buffer.append(contentsOf: repeatElement(zero, count: count - buffer.count))
            }
        }
    }

    /// The longest chord taken as a circle's centre distance (metres): up to it the geodesic is at most 0.2 mm
    /// longer (``EarthCentredPoint/geodesicExcess(chord:)``).
    static var chordLimit: Double { 5_000 }

    /// A box waiting to be opened: its lower bound of the boundary distance, its level and its position there.
    struct PendingBox: Sendable {
        var bound: Double
        var level: Int32
        var box: Int32
    }

    /// The distance from the point to an entry's boundary, negative inside: for a circle the distance to its
    /// centre minus its radius, for a polygon the distance to its nearest edge.
    ///
    /// A circle's centre distance is the straight line where that is within a millimetre of the geodesic (a chord
    /// up to ``chordLimit``), the geodesic beyond: the chord falls short of it by s³/24M², a kilometre at 1,000 km,
    /// which ranked a large circle that far nearer than it is. Either is at least the chord, so the walk's pruning
    /// by chords stays a lower bound.
    @inline(__always)
    func boundaryDistance(
        _ record: Record, at position: Int, from point: EarthCentredPoint, latitude: Double, longitude: Double
    ) -> Double {
        if record.radius > 0 {
            let chord = record.point.distance(to: point)
            guard chord > Self.chordLimit else { return chord - Double(record.radius) }
            let centre = centres[position]
            return Geodesic.distance(
                latitude1: centre.latitude, longitude1: centre.longitude, latitude2: latitude, longitude2: longitude)
                - centre.radius
        }
        guard let polygon = polygons[Int32(position)] else { return .infinity }
        let distance = polygon.boundaryDistance(latitude: latitude, longitude: longitude)
        return polygon.contains(latitude: latitude, longitude: longitude) ? -distance : distance
    }

    /// Finds the `count` regions whose boundary is nearest the point (distance to the boundary, negative inside),
    /// among those within `limit` metres of it that `admission` accepts (``CatalogAdmission``: the regions a
    /// platform would refuse are never chosen).
    ///
    /// The result is the same whatever the tree's shape and the order of the walk: the `count` smallest
    /// (distance, region number) pairs.
    public func nearest(
        latitude: Double, longitude: Double, count wanted: Int, within limit: Double = .infinity,
        admitting admission: CatalogAdmission = .any, into result: inout NearestRegions
    ) {
        nearest(
            latitude: latitude, longitude: longitude, count: wanted, within: limit, admitting: admission,
            atMost: .infinity, into: &result)
    }

    /// ``nearest(latitude:longitude:count:within:admitting:into:)`` admitting every shape no larger than
    /// `maximumRadius`: the form of this call before ``CatalogAdmission``, kept for code written against it.
    public func nearest(
        latitude: Double, longitude: Double, count wanted: Int, within limit: Double = .infinity,
        maximumRadius: Double?, into result: inout NearestRegions
    ) {
        nearest(
            latitude: latitude, longitude: longitude, count: wanted, within: limit,
            admitting: CatalogAdmission(maximumRadius: maximumRadius), into: &result)
    }

    /// ``nearest(latitude:longitude:count:within:admitting:into:)`` told that `wanted` regions (fitting
    /// `admission`) lie at most `bound` metres from the point, for example the answer of a point nearby measured
    /// again from this one: the walk prunes with the bound from its start instead of queueing every box until it has
    /// found `wanted` regions. The same answer (every region nearer than the bound is still found, ties included).
    func nearest(
        latitude: Double, longitude: Double, count wanted: Int, within limit: Double,
        admitting admission: CatalogAdmission,
        atMost bound: Double, into result: inout NearestRegions
    ) {
        nearest(
            latitude: latitude, longitude: longitude, point: EarthCentredPoint(latitude: latitude, longitude: longitude),
            count: wanted, within: limit, admitting: admission, atMost: bound, into: &result)
    }

    /// ``nearest(latitude:longitude:count:within:admitting:atMost:into:)`` with the point's Earth-centred
    /// position computed by the caller (a batch measures its bound from the same position).
    func nearest(
        latitude: Double, longitude: Double, point: EarthCentredPoint, count wanted: Int, within limit: Double,
        admitting admission: CatalogAdmission, atMost bound: Double, into result: inout NearestRegions
    ) {
        guard wanted > 0, let root = boxes.last, root.distance(to: point) - Double(root.maxRadius) <= limit
        else {
            result.setCount(0)
            return
        }
        // The walk fills the first `found` places, nearest first, and works on the buffers through pointers: a
        // query is a few hundred steps, each of which would otherwise check that its array is not shared. It reads
        // no place it has not filled, so the places are not cleared between queries.
        result.setCount(wanted)
        if result.pending.count < 4 * Self.fanOut {
            result.pending = Array(repeating: PendingBox(bound: 0, level: 0, box: 0), count: 4 * Self.fanOut)
        }
        result.pending[0] = PendingBox(
            bound: root.distance(to: point) - Double(root.maxRadius), level: Int32(levelCount - 1), box: 0)
        var walk = NearestWalk(wanted: wanted, limit: limit, bound: bound)
        // Rarely more than a few dozen boxes wait at once: the queue doubles when a box's children might not fit.
        while !result.distances.withUnsafeMutableBufferPointer({ distances in
            result.positions.withUnsafeMutableBufferPointer { positions in
                result.pending.withUnsafeMutableBufferPointer { pending in
                    records.withUnsafeBufferPointer { records in
                        boxes.withUnsafeBufferPointer { boxes in
                            walk.run(
                                self, records: records, boxes: boxes, pending: pending, distances: distances,
                                positions: positions, point: point, latitude: latitude, longitude: longitude,
                                admitting: admission)
                        }
                    }
                }
            }
        }) {
            result.pending.append(contentsOf: result.pending)
        }
        result.setCount(walk.found)
        records.withUnsafeBufferPointer { records in
            result.positions.withUnsafeBufferPointer { positions in
                result.regions.withUnsafeMutableBufferPointer { regions in
                    for i in positions.indices { regions[i] = records[Int(positions[i])].region }
                }
            }
        }
    }

    /// ``nearest(latitude:longitude:point:count:within:admitting:atMost:into:)`` walked first with a `guess` — a
    /// distance that usually holds `wanted` regions, such as the last answer's farthest distance with some to spare
    /// — and only when the guess does not hold them clear of it by a millimetre (more than the walk's rounding)
    /// again with `bound()`, a distance known to hold them (computed only then). The same answer either way: a walk
    /// finds every region nearer than its bound, so `wanted` of them, the farthest one clear of the guess, are the
    /// nearest. A tight first bound prunes boxes from the start, where a safe one lets a walk queue every box that
    /// reaches it until its first leaf has been scanned.
    func nearest(
        latitude: Double, longitude: Double, point: EarthCentredPoint, count wanted: Int, within limit: Double,
        admitting admission: CatalogAdmission, guess: Double, otherwise bound: () -> Double,
        into result: inout NearestRegions
    ) {
        if guess.isFinite {
            nearest(
                latitude: latitude, longitude: longitude, point: point, count: wanted, within: limit,
                admitting: admission, atMost: guess, into: &result)
            if wanted > 0 && result.distances.count == wanted && result.distances[wanted - 1] < guess - 1e-3 { return }
        }
        nearest(
            latitude: latitude, longitude: longitude, point: point, count: wanted, within: limit,
            admitting: admission, atMost: bound(), into: &result)
    }

    /// A guess for ``nearest(latitude:longitude:point:count:within:admitting:guess:otherwise:into:)`` from an
    /// answer of `wanted` regions nearby: its farthest distance × 1.25 + 20 m (the catalog's density changes slowly
    /// from one place to the next); infinite (no guess) when it found fewer.
    static func guess(after answer: NearestRegions, wanted: Int) -> Double {
        wanted > 0 && answer.distances.count == wanted ? answer.distances[wanted - 1] * 1.25 + 20 : .infinity
    }

    /// The largest boundary distance from the point to the regions at these positions, and a micrometre: at least
    /// `positions.count` regions that `admission` accepts lie within it, the farthest one too through the
    /// walk's squared test (whose rounding, a few nanometres at the Earth's scale, could otherwise leave it out).
    /// Infinite when one of the regions is larger.
    func farthest(
        of positions: some Collection<Int32>, latitude: Double, longitude: Double, admitting admission: CatalogAdmission
    ) -> Double {
        farthest(
            of: positions, latitude: latitude, longitude: longitude,
            point: EarthCentredPoint(latitude: latitude, longitude: longitude), admitting: admission)
    }

    /// ``farthest(of:latitude:longitude:admitting:)`` with the point's Earth-centred position computed by the
    /// caller.
    func farthest(
        of positions: some Collection<Int32>, latitude: Double, longitude: Double, point: EarthCentredPoint,
        admitting admission: CatalogAdmission
    ) -> Double {
        var farthest = -Double.infinity
        for position in positions {
            let position = Int(position)
            let record = records[position]
            guard fits(record, at: position, admission) else { return .infinity }
            farthest = max(
                farthest, boundaryDistance(record, at: position, from: point, latitude: latitude, longitude: longitude))
        }
        return farthest + 1e-6
    }

    /// Whether `admission` accepts the entry: its size, and its shape.
    func fits(_ record: Record, at position: Int, _ admission: CatalogAdmission) -> Bool {
        if record.radius > 0 {
            guard let maximumRadius = admission.maximumRadius else { return true }
            // The record's radius is the circle's rounded up: within the maximum, the circle is too (and its exact
            // radius, in another array, need not be read).
            return Double(record.radius) <= maximumRadius || centres[position].radius <= maximumRadius
        }
        guard admission.polygons else { return false }
        guard let maximumRadius = admission.maximumRadius else { return true }
        return (polygons[Int32(position)]?.halfExtent ?? 0) <= maximumRadius
    }
}
