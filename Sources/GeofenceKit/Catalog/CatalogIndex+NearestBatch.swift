/// Many nearest-regions queries answered together: in the order of the points along the index's Hilbert curve,
/// on every core. One query from a cold cache waits on memory for most of its time (it reads a few leaves and
/// boxes of a tree far larger than the cache); in curve order, neighbouring points read the same leaves, which
/// the query before left in the cache.
extension CatalogIndex {
    /// The answers of ``nearest(at:count:within:admitting:)``, point by point.
    public struct NearestBatch: Sendable {
        /// The most regions asked for each point.
        public let wanted: Int
        /// Point k's regions are `regions[k * wanted ..< k * wanted + found[k]]`, in ascending region number.
        var regions: [Int32]
        var found: [Int32]

        /// The number of points answered.
        public var count: Int { found.count }

        /// The regions nearest point k, in ascending region number (not by distance): the same regions as
        /// ``CatalogIndex/nearest(latitude:longitude:count:within:admitting:into:)`` finds there.
        public func regions(ofPoint k: Int) -> ArraySlice<Int32> {
            regions[k * wanted..<k * wanted + Int(found[k])]
        }
    }

    /// ``nearest(at:count:within:admitting:)`` admitting every shape no larger than `maximumRadius`: the form of this
    /// call before ``CatalogAdmission``, kept for code written against it.
    public func nearest(
        at points: [(latitude: Double, longitude: Double)], count wanted: Int, within limit: Double = .infinity,
        maximumRadius: Double?
    ) -> NearestBatch {
        nearest(at: points, count: wanted, within: limit, admitting: CatalogAdmission(maximumRadius: maximumRadius))
    }

    /// The `wanted` regions nearest each point (as ``nearest(latitude:longitude:count:within:admitting:into:)``
    /// finds them, one point at a time), the points taken in the order of the curve the tree is built along and
    /// shared among every core.
    public func nearest(
        at points: [(latitude: Double, longitude: Double)], count wanted: Int, within limit: Double = .infinity,
        admitting admission: CatalogAdmission = .any
    ) -> NearestBatch {
        let wanted = max(0, wanted)
        precondition(points.count < Self.maximumCount, "at most \(Self.maximumCount - 1) points in one batch")
        // The curve position of each point, then its input position in the low 24 bits (as the build sorts).
        let order = Self.sortedByCurve(ParallelFill.array(count: points.count) { k in
            Self.curveKey(latitude: points[k].latitude, longitude: points[k].longitude) << 24 | UInt64(k)
        })
        var regions = [Int32](repeating: 0, count: points.count * wanted)
        var found = [Int32](repeating: 0, count: points.count)
        regions.withUnsafeMutableBufferPointer { regions in
            found.withUnsafeMutableBufferPointer { found in
                // Pointers are not `Sendable`: the parts get the addresses, and each writes only its own points.
                let (regionsAddress, foundAddress) = (Int(bitPattern: regions.baseAddress), Int(bitPattern: found.baseAddress))
                ParallelFill.forEachPart(count: points.count, smallestPart: 1_024) { part in
                    let regionsOut = UnsafeMutablePointer<Int32>(bitPattern: regionsAddress)
                    let found = UnsafeMutablePointer<Int32>(bitPattern: foundAddress)!
                    // The answer of the point before along the curve, and the buffers of this point's walk.
                    var answer = NearestRegions(), query = NearestRegions()
                    for position in part {
                        let k = Int(order[position] & 0xFF_FFFF)
                        let (latitude, longitude) = points[k]
                        // Its two sines and cosines once, for the walk and, if needed, the bound.
                        let point = EarthCentredPoint(latitude: latitude, longitude: longitude)
                        // A tight guess first: the point before is near, and the catalog's density changes slowly
                        // along the curve, so its own farthest distance, a little more, usually holds `wanted`.
                        // Otherwise the safe bound: the point before's regions measured from here (measured only
                        // then).
                        nearest(
                            latitude: latitude, longitude: longitude, point: point, count: wanted, within: limit,
                            admitting: admission, guess: Self.guess(after: answer, wanted: wanted),
                            otherwise: {
                                answer.positions.count == wanted
                                    ? farthest(
                                        of: answer.positions, latitude: latitude, longitude: longitude, point: point,
                                        admitting: admission) : .infinity
                            }, into: &query)
                        swap(&answer, &query)
                        answer.sortRegions()
                        let regions = answer.regions
                        found[k] = Int32(regions.count)
                        for (i, region) in regions.enumerated() { regionsOut![k * wanted + i] = region }
                    }
                }
            }
        }
        return NearestBatch(wanted: wanted, regions: regions, found: found)
    }
}
