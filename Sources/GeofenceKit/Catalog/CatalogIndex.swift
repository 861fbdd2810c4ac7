/// A spatial index over a shared region catalog: which regions are nearest a point, and which contain it, in
/// microseconds for catalogs of 1 to 10,000,000 regions (circles and polygons).
///
/// A packed R-tree, built once and never changed: the regions are sorted along a Hilbert curve of their centres,
/// cut into leaves of ``leafSize`` consecutive regions, and every ``fanOut`` boxes are boxed again up to a single
/// root. Boxes are axis-aligned in Earth-centred coordinates (``EarthCentredPoint``), where the straight
/// distance to a box is a lower bound of the geodesic distance to anything inside it: pruning is safe everywhere
/// on the Earth, across ±180° and over the poles, without special cases. Each box also keeps the largest radius
/// below it, so "distance to the boundary" (centre distance minus radius) is bounded too.
///
/// Memory: the regions are stored once, in tree order: a 32-byte record that queries read (Earth-centred
/// position, radius, region number: a leaf is 1 KiB of contiguous memory) and the exact centre and radius
/// (24 bytes) for registering a chosen region; plus 28 bytes per box (one per 32 regions, fewer above): about
/// 57 bytes per circle. A polygon costs that plus its own geometry.
public struct CatalogIndex: Sendable {
    /// A catalog region's shape, as the index takes it.
    public enum Shape: Sendable {
        /// A circle: its centre in degrees and its radius in metres (> 0).
        case circle(latitude: Double, longitude: Double, radius: Double)
        case polygon(PolygonGeometry)
    }

    /// Regions per leaf, read as one contiguous run of 1 KiB (along the Hilbert curve, leaves of 32 measured 5 %
    /// faster than 64 or 16 for the 20 nearest of a million).
    public static let leafSize = 32
    /// Boxes per box above the leaves.
    public static let fanOut = 16
    /// The most regions one index holds (region positions are sorted as 24-bit numbers).
    public static let maximumCount = 1 << 24

    struct Box: Sendable {
        var minX: Float, minY: Float, minZ: Float
        var maxX: Float, maxY: Float, maxZ: Float
        /// The largest radius (circle) or bounding radius (polygon) of the regions inside.
        var maxRadius: Float

        static let empty = Box(
            minX: .infinity, minY: .infinity, minZ: .infinity, maxX: -.infinity, maxY: -.infinity, maxZ: -.infinity,
            maxRadius: 0)

        /// The straight-line distance from a point to the box (0 inside it).
        @inline(__always)
        func distance(to point: EarthCentredPoint) -> Double { squaredDistance(to: point).squareRoot() }

        @inline(__always)
        func squaredDistance(to point: EarthCentredPoint) -> Double {
            let dx = max(Double(minX) - point.x, 0, point.x - Double(maxX))
            let dy = max(Double(minY) - point.y, 0, point.y - Double(maxY))
            let dz = max(Double(minZ) - point.z, 0, point.z - Double(maxZ))
            return dx * dx + dy * dy + dz * dz
        }

        /// A lower bound of the boundary distance from the point to anything in the box (the straight distance to
        /// the box minus the largest radius under it), from `Float` arithmetic on the three axes at once: a walk
        /// tests about a hundred boxes a query, and this is a third of the instructions of the exact test.
        /// `point` is the point's Earth-centred position rounded to `Float`, the fourth lane 0.
        ///
        /// Why it is a lower bound: coordinates are within 6.4e6 m of the Earth's centre, so rounding the point to
        /// `Float` moves each coordinate by at most 0.25 m, and each difference (at most 1.3e7 m) is rounded by at
        /// most 0.5 m: each axis's distance is within 0.75 m of the exact one, the straight distance within 1.3 m.
        /// The three squares and their sum add at most 4 roundings of 2⁻²⁴ each (less than 3e-7 of the sum). So the
        /// exact distance is at least √sum × (1 − 1e-6) − 2 m.
        @inline(__always)
        func lowerBound(from point: SIMD4<Float>) -> Double {
            let low = SIMD4(minX, minY, minZ, 0), high = SIMD4(maxX, maxY, maxZ, 0)
            let outside = pointwiseMax(pointwiseMax(low - point, point - high), .zero)
            let squared = (outside * outside).sum()
            return Double(squared).squareRoot() * (1 - 1e-6) - 2 - Double(maxRadius)
        }

        mutating func include(_ other: Box) {
            minX = min(minX, other.minX); minY = min(minY, other.minY); minZ = min(minZ, other.minZ)
            maxX = max(maxX, other.maxX); maxY = max(maxY, other.maxY); maxZ = max(maxZ, other.maxZ)
            maxRadius = max(maxRadius, other.maxRadius)
        }
    }

    /// What a leaf scan reads, 32 bytes per region so that a leaf is one run of memory: the Earth-centred
    /// position, the radius (a polygon's bounding radius) rounded up to a `Float`, and the region number.
    struct Record: Sendable {
        var x: Double, y: Double, z: Double
        /// Positive for a circle, negative (minus the bounding radius) for a polygon.
        var radius: Float
        var region: Int32

        @inline(__always) var point: EarthCentredPoint { EarthCentredPoint(x: x, y: y, z: z) }
    }

    // Regions in tree order.
    private(set) var records: [Record]
    /// Exact centres and radii in tree order, each a ``Circle`` (for a polygon, its bounding circle with the
    /// radius negated): registering a chosen region reads one cache line, not three.
    let centres: [Circle]
    /// Polygons by entry position.
    let polygons: [Int32: PolygonGeometry]
    /// Every level's boxes in one array, level 0 first: level 0 boxes the entries, level k boxes level k − 1, and
    /// the last level is the root alone (the last box). Level k is `boxes[levelStarts[k]..<levelStarts[k + 1]]`.
    /// One array, so that a walk reads every level through one pointer: an array per level was retained and
    /// released at every box a query opened, on a count the shards querying the one catalog share.
    let boxes: [Box]
    let levelStarts: [Int]

    /// The number of levels of boxes.
    var levelCount: Int { levelStarts.count - 1 }

    /// Where level k's boxes are in ``boxes``.
    @inline(__always)
    func boxRange(ofLevel k: Int) -> Range<Int> { levelStarts[k]..<levelStarts[k + 1] }

    /// The number of regions.
    public var count: Int { records.count }

    /// Builds the index of `shapes`, each with its region number (for example its position in the region file).
    /// - Precondition: fewer than ``maximumCount`` shapes; circle radii > 0.
    public init(_ shapes: some Sequence<(region: Int32, shape: Shape)>) {
        var centres: [Circle] = [], regions: [Int32] = []
        var polygonsByInput: [Int32: PolygonGeometry] = [:]
        for (region, shape) in shapes {
            switch shape {
            case .circle(let latitude, let longitude, let radius):
                centres.append(Circle(latitude: latitude, longitude: longitude, radius: radius))
            case .polygon(let polygon):
                let (latitude, longitude, bound) = Self.boundingCircle(polygon)
                polygonsByInput[Int32(centres.count)] = polygon
                centres.append(Circle(latitude: latitude, longitude: longitude, radius: -bound))
            }
            regions.append(region)
        }
        self.init(centres: centres, regions: regions, polygons: polygonsByInput)
    }

    /// A circle as ``init(circles:)`` takes it: its centre in degrees and its radius in metres (> 0). The index
    /// also stores each region's exact centre as one (see ``centres``).
    public struct Circle: Sendable {
        public var latitude: Double
        public var longitude: Double
        public var radius: Double

        public init(latitude: Double, longitude: Double, radius: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
        }
    }

    /// Builds the index of circles numbered by their position in `circles`: the index ``init(_:)`` builds of
    /// `(k, .circle(…))` for each `circles[k]`.
    /// - Precondition: fewer than ``maximumCount`` circles; radii > 0.
    public init(circles: [Circle]) {
        self.init(centres: circles, regions: nil, polygons: [:])
    }

    /// Builds the index of the regions in input order (a polygon by its bounding circle, the radius negative, and
    /// its geometry by input position; `regions` nil: each numbered by its input position). Every step per region
    /// runs on every core — the Hilbert positions, the Earth-centred points (two sines and cosines each), the
    /// leaves' boxes. The circles are gathered into tree order once (the only reads out of order: a cache miss
    /// each), and the records are computed straight in tree order from that array, read in order (an intermediate
    /// array in input order, gathered afterwards, cost 32 MB of fresh pages for a million; a second gather from
    /// the input, a second cache miss a region).
    private init(centres centresByInput: [Circle], regions: [Int32]?, polygons polygonsByInput: [Int32: PolygonGeometry]) {
        let count = centresByInput.count
        precondition(count < Self.maximumCount, "a catalog holds at most \(Self.maximumCount - 1) regions")
        // Tree order: the centre's position on the Hilbert curve (40 bits), then input order; both in one key.
        let keys = Self.sortedByCurve(ParallelFill.array(count: count) { i in
            Self.curveKey(latitude: centresByInput[i].latitude, longitude: centresByInput[i].longitude) << 24 | UInt64(i)
        })
        let centres = ParallelFill.array(count: count) { centresByInput[Int(keys[$0] & 0xFF_FFFF)] }
        records = ParallelFill.array(count: count) { position in
            let input = Int(keys[position] & 0xFF_FFFF)
            let centre = centres[position]
            let point = EarthCentredPoint(latitude: centre.latitude, longitude: centre.longitude)
            let float = Float(abs(centre.radius))
            let rounded = Double(float) >= abs(centre.radius) ? float : float.nextUp
            return Record(
                x: point.x, y: point.y, z: point.z, radius: centre.radius > 0 ? rounded : -rounded,
                region: regions?[input] ?? Int32(input))
        }
        self.centres = centres
        var polygons: [Int32: PolygonGeometry] = [:]
        if !polygonsByInput.isEmpty {
            for (position, key) in keys.enumerated() {
                if let polygon = polygonsByInput[Int32(key & 0xFF_FFFF)] { polygons[Int32(position)] = polygon }
            }
        }
        self.polygons = polygons
        let levels = Self.buildLevels(records)
        boxes = Array(levels.joined())
        levelStarts = levels.reduce(into: [0]) { starts, level in starts.append(starts.last! + level.count) }
    }

    /// Gives every entry the region number of its position in tree order (for generated catalogs, whose regions
    /// have no order of their own: numbering them along the tree keeps neighbours' numbers close). In place when
    /// the index is not shared.
    public mutating func numberRegionsInTreeOrder() {
        records.withUnsafeMutableBufferPointer { records in
            for position in records.indices { records[position].region = Int32(position) }
        }
        regionsAreTreePositions = true
    }

    /// Whether every region's number is its position (``numberRegionsInTreeOrder()``): a monitor can then measure
    /// the regions a device monitors straight from the index.
    private(set) var regionsAreTreePositions = false

    /// Bytes the index holds, allocations included (polygons' own geometry excluded).
    public var memoryBytes: Int {
        let perEntry = MemoryLayout<Record>.stride + 8 + 8 + 8
        let boxBytes = boxes.count * MemoryLayout<Box>.stride + levelStarts.count * 8
        return count * perEntry + boxBytes + polygons.count * 48
    }

    /// The shape of the entry at `position` (tree order).
    func shape(at position: Int) -> Shape {
        let centre = centres[position]
        if centre.radius < 0, let polygon = polygons[Int32(position)] { return .polygon(polygon) }
        return .circle(latitude: centre.latitude, longitude: centre.longitude, radius: centre.radius)
    }

    /// The shape of a region whose number is its tree position (see ``numberRegionsInTreeOrder()``).
    public func shape(ofTreePosition position: Int) -> Shape { shape(at: position) }

    // MARK: Building

    /// The position along a Hilbert curve over a 2²⁰ × 2²⁰ grid of latitude and longitude (about 20 m cells).
    /// Consecutive positions are neighbours on the Earth and the curve never jumps, so runs of it make compact,
    /// barely overlapping leaves (a Z-order curve's jumps made leaves that spanned far apart halves: queries opened
    /// twice the leaves).
    static func curveKey(latitude: Double, longitude: Double) -> UInt64 {
        @inline(__always) func quantize(_ value: Double, _ low: Double, _ span: Double) -> UInt64 {
            let unit = (value - low) / span
            guard unit.isFinite else { return 0 }
            return UInt64(min(max(unit, 0), 1) * Double((1 << 20) - 1))
        }
        // In [−180, 180) the remainder is the longitude itself: the division only outside (NaN included).
        var wrapped = longitude
        if !(wrapped >= -180 && wrapped < 180) {
            wrapped = longitude.truncatingRemainder(dividingBy: 360)
            if wrapped >= 180 { wrapped -= 360 } else if wrapped < -180 { wrapped += 360 }
        }
        let x = quantize(wrapped, -180, 360), y = quantize(latitude, -90, 180)
        // Four levels of the curve at a time, from the top: a table lookup each instead of four branchy steps. The
        // table by pointer: a lazy global read once per key, not once per lookup (an index below 4 << 8 is in it).
        return curveSteps.withUnsafeBufferPointer { steps in
            var d: UInt64 = 0
            var state = 0
            var shift = 16
            while shift >= 0 {
                let step = steps[state << 8 | Int((x >> UInt64(shift)) & 0xF) << 4 | Int((y >> UInt64(shift)) & 0xF)]
                d = d << 8 | UInt64(step >> 2)
                state = Int(step & 3)
                shift -= 4
            }
            return d
        }
    }

    /// The Hilbert curve four levels at a time: for a state and four bits each of x (high nibble) and y, the
    /// curve's eight bits of position (shifted left by 2) and the next state.
    ///
    /// A level reads the bits (rx, ry) of the quadrant, adds the digit (3·rx) xor ry, and turns the rest of the
    /// square so that the curve's pieces join: where ry is 0 it swaps x and y, after complementing both where rx
    /// is 1. The state is that turn so far (bit 0: swapped, bit 1: complemented), the two commuting.
    private static let curveSteps: [UInt16] = {
        var table = [UInt16](repeating: 0, count: 4 * 256)
        for state in 0..<4 {
            for bits in 0..<256 {
                var turn = state, digits = 0
                for level in stride(from: 3, through: 0, by: -1) {
                    var rx = (bits >> (4 + level)) & 1, ry = (bits >> level) & 1
                    if turn & 1 != 0 { swap(&rx, &ry) }
                    if turn & 2 != 0 {
                        rx ^= 1
                        ry ^= 1
                    }
                    digits = digits << 2 | ((3 * rx) ^ ry)
                    if ry == 0 { turn ^= rx == 1 ? 3 : 1 }
                }
                table[state << 8 | bits] = UInt16(digits << 2 | turn)
            }
        }
        return table
    }()

    /// The keys sorted by their curve position (bits 24 and up), ties in input order: as `sorted()` gives them when
    /// the low 24 bits count up with the input, as they do. A radix sort of five byte-wide passes (a byte every key
    /// shares is counted, not moved), several times faster than a comparison sort of a million keys. The keys are
    /// consumed: their buffer is reused (a borrowed array would be copied first, 8 MB of fresh pages for a million).
    static func sortedByCurve(_ keys: consuming [UInt64]) -> [UInt64] {
        var source = consume keys
        var target = [UInt64](repeating: 0, count: source.count)
        // Every pass's counts in one read of the keys (a pass moves keys, it does not change how many have a byte).
        var histograms = [Int](repeating: 0, count: 5 * 256)
        histograms.withUnsafeMutableBufferPointer { histograms in
            for key in source {
                for pass in 0..<5 { histograms[pass << 8 | Int((key >> UInt64(24 + 8 * pass)) & 0xFF)] += 1 }
            }
        }
        var counts = [Int](repeating: 0, count: 256)
        for pass in 0..<5 {
            let shift = UInt64(24 + 8 * pass)
            let histogram = histograms[pass << 8..<(pass + 1) << 8]
            // A byte all keys share (the top ones, for a catalog over one area) leaves the order as it is.
            if histogram.contains(source.count) { continue }
            // counts[b]: where the keys with byte b start.
            var start = 0
            for (b, count) in histogram.enumerated() {
                counts[b] = start
                start += count
            }
            source.withUnsafeBufferPointer { source in
                target.withUnsafeMutableBufferPointer { target in
                    for key in source {
                        let b = Int((key >> shift) & 0xFF)
                        target[counts[b]] = key
                        counts[b] += 1
                    }
                }
            }
            swap(&source, &target)
        }
        return source
    }

    private static func buildLevels(_ records: [Record]) -> [[Box]] {
        guard !records.isEmpty else { return [] }
        let leaves = ParallelFill.array(count: (records.count + leafSize - 1) / leafSize, smallestPart: 512) { leaf in
            var box = Box.empty
            for i in leaf * leafSize..<min((leaf + 1) * leafSize, records.count) {
                // Float keeps a coordinate within 0.25 m of the Double: a metre outwards covers it.
                let p = records[i]
                box.minX = min(box.minX, Float(p.x) - 1); box.maxX = max(box.maxX, Float(p.x) + 1)
                box.minY = min(box.minY, Float(p.y) - 1); box.maxY = max(box.maxY, Float(p.y) + 1)
                box.minZ = min(box.minZ, Float(p.z) - 1); box.maxZ = max(box.maxZ, Float(p.z) + 1)
                box.maxRadius = max(box.maxRadius, abs(p.radius))
            }
            return box
        }
        var levels = [leaves]
        while let below = levels.last, below.count > 1 {
            var above: [Box] = []
            above.reserveCapacity((below.count + fanOut - 1) / fanOut)
            for start in stride(from: 0, to: below.count, by: fanOut) {
                var box = Box.empty
                for i in start..<min(start + fanOut, below.count) { box.include(below[i]) }
                above.append(box)
            }
            levels.append(above)
        }
        return levels
    }

    /// A circle around a polygon: the centre of its bounding box, and a radius that every point of the polygon
    /// lies within in a straight line (the farthest vertex, with 5 % and 10 m to spare for edges that bow out).
    static func boundingCircle(_ polygon: PolygonGeometry) -> (latitude: Double, longitude: Double, radius: Double) {
        let latitude = (polygon.minLatitude + polygon.maxLatitude) / 2
        let longitude = (polygon.minLongitude + polygon.maxLongitude) / 2
        let centre = EarthCentredPoint(latitude: latitude, longitude: longitude)
        var farthest = 0.0
        for (vertexLatitude, vertexLongitude) in zip(polygon.latitudes, polygon.longitudes) {
            farthest = max(farthest, centre.distance(to: EarthCentredPoint(latitude: vertexLatitude, longitude: vertexLongitude)))
        }
        return (latitude, longitude, farthest * 1.05 + 10)
    }
}
