/// Many moves from one position, each by a distance at a bearing, with the C library's sine and cosine of each
/// bearing deciding the result bit for bit, but called only where its last bits could change it.
extension GeoMotion {
    /// For each i < `count`, the position `distances[i]` metres (≥ 0) from (`latitude`, `longitude`) at bearing
    /// `bearings[i]` (radians clockwise from north): exactly
    /// `move(latitude, longitude, north: distances[i] * cos, east: distances[i] * sin, scale: scale)` with the
    /// library's `cos` and `sin` of the bearing (``SineAndCosine/of(_:)``), bit for bit.
    ///
    /// Generated regions place each device's 20 centres this way. The bearing's sine and cosine are first taken
    /// within a bound of the library's (``SineAndCosine/bounded(_:)``, about a third of its instructions); the
    /// library is called for the few moves that bound could change
    /// (``boundedMove(_:_:distance:bearing:direction:scale:)``): about 2.5 % of the default walk's centres, where the
    /// bracket, ~1e-16° wide for a centre 2 km away, straddles a rounding boundary of a latitude's (3.6e-15°) or
    /// longitude's (1.4e-14°) last bit.
    /// - Parameters:
    ///   - scale: `LocalScale(latitude: latitude)`.
    ///   - stride: how many `Double`s apart the results are written (`latitudes[i * stride]`): 1 for arrays of
    ///     their own, more for fields of records (generated regions write their circles' centres in place).
    package static func moves(
        from latitude: Double, _ longitude: Double, scale: LocalScale, distances: UnsafePointer<Double>,
        bearings: UnsafePointer<Double>, count: Int, latitudes: UnsafeMutablePointer<Double>,
        longitudes: UnsafeMutablePointer<Double>, stride: Int = 1
    ) {
        // Two loops: every bearing's bounded sine and cosine, then every move. Their iterations are short and
        // independent, so the processor overlaps several; one loop of both waited on each centre's chain of
        // multiplications and divisions in turn.
        withUnsafeTemporaryAllocation(of: (sin: Double, cos: Double).self, capacity: count) { directions in
            for i in 0..<count {
                // A bearing out of the bounded range (which `boundedMove` refuses) takes 0's, unused.
                let bearing = bearings[i]
                directions[i] = SineAndCosine.bounded(abs(bearing) <= 2 * .pi ? bearing : 0)
            }
            for i in 0..<count {
                let distance = distances[i], bearing = bearings[i]
                if let end = boundedMove(
                    latitude, longitude, distance: distance, bearing: bearing, direction: directions[i], scale: scale)
                {
                    (latitudes[i &* stride], longitudes[i &* stride]) = end
                } else {
                    let direction = SineAndCosine.of(bearing)
                    (latitudes[i &* stride], longitudes[i &* stride]) = move(
                        latitude, longitude, north: distance * direction.cos, east: distance * direction.sin,
                        scale: scale)
                }
            }
        }
    }

    /// The move of ``moves(from:_:scale:distances:bearings:count:latitudes:longitudes:stride:)`` when the bounded sine
    /// and cosine decide it on the plane, or `nil`; `direction` is the bearing's ``SineAndCosine/bounded(_:)``
    /// (any pair when the bearing is out of its range, which this refuses).
    ///
    /// Why the answer is the library's: with c its cosine and ĉ the bounded one, |ĉ − c| < B
    /// (``SineAndCosine/boundedError``), so ĉ − 2B and ĉ + 2B, each rounded (by at most 2.2e-16 < B), bracket c.
    /// Each step from the cosine to the latitude — d·x with d ≥ 0, x / metresPerDegreeLatitude (positive),
    /// latitude + x — is a correctly rounded operation that never decreases as x grows, so every cosine between the
    /// two ends gives the sum both ends give, when they give the same one, and so the same latitude once clamped;
    /// likewise the longitude from the sine (metresPerDegreeLongitude ≥ 1), then wrapped.
    /// And ``move(_:_:north:east:scale:)`` takes the plane for these moves: |latitude| ≤ 80° and d ≤ 19 km keep
    /// north² + east² (≤ d²·(1 + 1e-15)) under the 20 km limit, and d ≥ 1e-100 keeps it from being 0.
    @inline(__always)
    static func boundedMove(
        _ latitude: Double, _ longitude: Double, distance d: Double, bearing: Double,
        direction: (sin: Double, cos: Double), scale: LocalScale
    ) -> (latitude: Double, longitude: Double)? {
        guard abs(latitude) <= planeLatitudeLimit, d >= 1e-100, d <= 19_000, abs(bearing) <= 2 * .pi else {
            return nil
        }
        let margin = 2 * SineAndCosine.boundedError
        // Both ends in one vector, (latitude, longitude) at the low end, then at the high one: every lane takes the
        // operations of `scale.move` (d·x, over metres per degree, plus the start), each correctly rounded as a
        // scalar's, so the same bits for half the instructions. (c + (−2B) is c − 2B exactly.)
        let directions = SIMD4(direction.cos, direction.sin, direction.cos, direction.sin)
        let metresPerDegree = SIMD2(scale.metresPerDegreeLatitude, scale.metresPerDegreeLongitude)
        let moved = SIMD4(lowHalf: SIMD2(latitude, longitude), highHalf: SIMD2(latitude, longitude))
            + d * (directions + SIMD4(-margin, -margin, margin, margin))
            / SIMD4(lowHalf: metresPerDegree, highHalf: metresPerDegree)
        // Compared before the clamp and the wrap (``LocalScale/kept(_:_:)``): ends that agree there agree after, and
        // ends that only the clamp or the wrap would make agree are left to the library, which gives that position.
        guard moved.lowHalf == moved.highHalf else { return nil }
        return LocalScale.kept(moved.x, moved.y)
    }
}
