/// A disc around a device's position that no boundary of its regions crosses: while the device stays inside it,
/// it is inside or outside each region exactly as before, so a sample there needs no containment test at all.
///
/// The exact path (``MonitorState``) tests every slot at a sample and takes, over the slots, a lower bound of the
/// geodesic distance from the position to each circle's boundary (``PackedRegion/circleContains(latitude:longitude:clearance:)``);
/// that is the disc's radius. Later samples are first measured against the disc. Geodesic distance is a metric,
/// so a device that moved less than the radius is on the same side of every boundary (for a region whose centre
/// lies at distance s from the anchor, the new distance differs from s by at most the distance moved). Moving
/// devices cross a boundary rarely: most samples then cost this one test instead of one test per region.
///
/// The distance moved is bounded from above, never estimated: along the straight path in latitude and longitude
/// between the two positions, a step is at most B·√(dφ² + cos²φ·dλ²) metres, with B = a/√(1 − e²) the largest
/// radius of curvature of the ellipsoid (N cos φ ≤ B cos φ and M ≤ B), and φ the latitude nearest the equator
/// that the path can reach while it stays within ``maximumRadius``. The geodesic is no longer than that path.
///
/// Each slot keeps its own clearance from the disc's centre (`SlotTable.clearance`): a sample outside the disc
/// subtracts the distance moved from each and tests only the slots whose clearance that used up, so a device near
/// one boundary does not pay for its nineteen other regions (see `MonitorState+ExactPath`). Anything that changes
/// a device's slots must reset its clearance (``none``).
struct BoundaryClearance: Sendable {
    /// The position the disc is centred on (degrees): the device's position at its last full test.
    var latitude: Double
    var longitude: Double
    /// cos² of the latitude nearest the equator within ``maximumRadius`` of the centre, rounded up.
    var cosineSquared: Float
    /// The disc's radius squared, in radians of B (squared), rounded down; 0: no disc.
    var radiusSquared: Float

    /// No disc, and no centre to measure from: the next sample tests every slot.
    static let none = BoundaryClearance(latitude: .nan, longitude: .nan, cosineSquared: 1, radiusSquared: 0)

    /// The largest radius of curvature of the WGS84 ellipsoid, a/√(1 − e²) (at the poles), in metres.
    static var largestRadius: Double { 6_399_593.625_758_493 }

    /// Distances moved are measured up to this far from the centre (metres), and discs are no wider: far regions
    /// would otherwise need their plane's error bound far beyond their radius, and a device seldom goes further
    /// without meeting a boundary anyway.
    static var maximumRadius: Double { 5_000 }
    private static var maximumAngle: Double { maximumRadius / largestRadius }

    /// A disc centred on a sample's position, of `radius` metres (a lower bound of the distance to every boundary).
    /// Inlined: the exact path makes one at every sample that leaves its disc, from the plane's terms it holds.
    @inline(__always)
    init(_ sample: SamplePlane, radius: Double) {
        guard abs(sample.latitude) <= 90, sample.longitude.isFinite else {
            self = .none
            return
        }
        // Within `maximumAngle` of the centre (B·|dφ| < maximumRadius) the path's latitude stays in the band
        // |φ| − maximumAngle…90°, whose cosine is largest at x = max(0, |φ| − maximumAngle): cos x = cos|φ|·cos α +
        // sin|φ|·sin α, from the sine and cosine the sample's plane already holds (within 4e-16 each). A relative
        // 1e-6 covers their rounding and that of the Float, 16 times over (x ≤ 90° − α keeps cos x ≥ sin α ≈ 7.8e-4,
        // and a Float is within 6e-8 of the value it rounds): no check needed after the conversion. The cap at 1
        // holds as it is, cos² never being larger.
        let s = sample.terms.sinLatitude, c = sample.terms.cosLatitude
        let cosine =
            abs(sample.latitude) * Geodesic.radiansPerDegree <= Self.maximumAngle
            ? 1 : c * Self.cosineOfMaximumAngle + abs(s) * Self.sineOfMaximumAngle
        self.init(
            latitude: sample.latitude, longitude: sample.longitude,
            cosineSquared: Float(min(1, cosine * cosine * (1 + 1e-6))), radiusSquared: 0)
        setRadius(radius)
    }

    /// cos α and sin α of ``maximumAngle`` α (7.8e-4 rad), by their Taylor sums: the terms left out are below 1e-17.
    private static var cosineOfMaximumAngle: Double {
        let a2 = maximumAngle * maximumAngle
        return 1 - a2 / 2 + a2 * a2 / 24
    }
    private static var sineOfMaximumAngle: Double { maximumAngle * (1 - maximumAngle * maximumAngle / 6) }

    private init(latitude: Double, longitude: Double, cosineSquared: Float, radiusSquared: Float) {
        self.latitude = latitude
        self.longitude = longitude
        self.cosineSquared = cosineSquared
        self.radiusSquared = radiusSquared
    }

    /// Sets the disc's radius in metres (capped at ``maximumRadius``; 0 or less: no disc).
    mutating func setRadius(_ radius: Double) {
        guard radius > 0 else { return radiusSquared = 0 }
        let angle = min(radius, Self.maximumRadius) / Self.largestRadius
        // Rounded down by a relative 1e-6, over 16 times the Float's rounding (6e-8): still below angle².
        radiusSquared = Float(angle * angle * (1 - 1e-6))
    }

    /// The square of an upper bound of the geodesic distance from the centre to the position, in radians of B;
    /// +∞ beyond ``maximumRadius`` (or for a NaN position, or no centre), where the bound does not hold.
    @inline(__always)
    func movedSquared(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Double {
        Self.capped(pathSquared(latitude: pointLatitude, longitude: pointLongitude))
    }

    /// ``movedSquared(latitude:longitude:)`` before its cap: a bound only below ``maximumRadius``, as every disc
    /// is, so a value below the disc's ``radiusSquared`` needs no cap (the exact path's loop tests that first).
    ///
    /// The longitudes' difference is not wrapped: across the antimeridian the path measured goes the long way
    /// round. That is still a path between the two positions, so still a bound, only a longer one (away from the
    /// poles far beyond every disc: capped, +∞, every slot tested). The few samples there cost more and the many
    /// elsewhere one test less.
    ///
    /// Summed in degrees and scaled to radians once, two multiplications fewer than scaling each difference: the
    /// rounding is of a few units in the last place either way, which the radius, rounded down by a relative 1e-6,
    /// covers.
    ///
    /// The longitudes' difference is taken the other way round, the same square to the bit: taken as the
    /// latitudes' is, the compiler packed the two differences into one vector register and unpacked them again,
    /// five instructions more at every sample of the exact path's loop.
    @inline(__always)
    func pathSquared(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Double {
        let k = Geodesic.radiansPerDegree
        let dPhi = pointLatitude - latitude
        let dLambda = longitude - pointLongitude
        return (dPhi * dPhi + Double(cosineSquared) * dLambda * dLambda) * (k * k)
    }

    /// A ``pathSquared(latitude:longitude:)``, or +∞ beyond ``maximumRadius`` (and for NaN).
    @inline(__always)
    static func capped(_ pathSquared: Double) -> Double {
        // NaN fails the comparison too.
        pathSquared < maximumAngle * maximumAngle ? pathSquared : .infinity
    }

    /// Whether the position lies strictly inside the disc (then no region's containment has changed).
    @inline(__always)
    func covers(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Bool {
        movedSquared(latitude: pointLatitude, longitude: pointLongitude) < Double(radiusSquared)
    }

    /// A ``pathSquared(latitude:longitude:)`` (capped or not) in metres, rounded up; +∞ beyond ``maximumRadius``
    /// (and for NaN), where the bound does not hold: the cap and the conversion in one comparison.
    @inline(__always)
    static func metres(fromPathSquared pathSquared: Double) -> Double {
        pathSquared < maximumAngle * maximumAngle ? metres(fromSquared: pathSquared) : .infinity
    }

    /// `movedSquared` in metres, rounded up.
    @inline(__always)
    static func metres(fromSquared squared: Double) -> Double {
        largestRadius * squared.squareRoot() * (1 + 1e-9)
    }
}
