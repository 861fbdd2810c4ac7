/// A slot as the monitor's inner loop reads it, in 24 bytes: a circle's centre and radius, the slot's flags and the
/// exact path's clearance — or a reference to a polygon kept aside.
///
/// Nothing derived is kept: the plane's trigonometry and radii of curvature are computed once per sample at the
/// sample's position (``SamplePlane``), and the plane's error bound is a cheap function of the radius there. A
/// million devices with 20 regions each fit in memory that way, and a device's 20 slots take 480 bytes of cache.
/// The decision is the same as ``CircleGeometry/contains(latitude:longitude:)``: the plane where it is clear, the
/// exact geodesic within the margin of the boundary.
///
/// The radius is a `Float`: exact for the radii people write (whole metres, halves, …) and for generated ones; a
/// table that registers a radius a `Float` cannot hold keeps every exact radius beside (``SlotTable/exactRadius``),
/// and the decisions use those.
struct PackedRegion: Sendable {
    /// Degrees; for a polygon, its index in the monitor's polygon table.
    var latitude: Double
    var longitude: Double
    /// Metres (the nearest `Float`); -1 for a polygon.
    var radius: Float
    /// Exact path only: a lower bound of the distance from the device's clearance's centre to the slot's boundary,
    /// in ``clearanceUnit``s (see `MonitorState+ExactPath`).
    var clearance: UInt16 = 0
    /// `MonitorState.inside`, `.notifyOnEntry`, …
    var flags: UInt8 = 0

    /// The clearance's resolution in metres: 65,535 units reach past ``BoundaryClearance/maximumRadius``.
    static var clearanceUnit: Double { 0.125 }

    init(latitude: Double, longitude: Double, radius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = Float(radius)
    }

    init(_ circle: CircleGeometry) {
        self.init(latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius)
    }

    init(polygonIndex: Int) {
        latitude = Double(polygonIndex)
        longitude = 0
        radius = -1
    }

    @inline(__always) var isPolygon: Bool { radius < 0 }
    var polygonIndex: Int {
        @inline(__always) get { Int(latitude) }
        set { latitude = Double(newValue) }
    }

    /// Stores a clearance, rounded down to a whole unit (``WholeUnits/atMost(_:)``; a negative one as 0: the slot is
    /// tested at the next move).
    @inline(__always)
    mutating func setClearance(metres: Double) {
        // Clamped to ½…65,535½ (`min` keeps a NaN, which `max` then replaces): the ends round down to 0 and 65,535.
        let units = max(0.5, min(metres / Self.clearanceUnit, 65_535.5))
        clearance = UInt16(truncatingIfNeeded: WholeUnits.atMost(units))
    }

    /// The geodesic distance from the centre to the sample (the centre first, as ``CircleGeometry`` asks).
    @inline(__always)
    func geodesicDistance(to sample: SamplePlane) -> Double {
        Geodesic.distance(
            latitude1: latitude, longitude1: longitude, latitude2: sample.latitude, longitude2: sample.longitude)
    }

    /// The distance from a circle's centre to the sample, exact enough to be compared with two thresholds: the
    /// plane where it is further than its error bound from both, the geodesic otherwise (``GuardedDistance``).
    func centreDistance(from sample: SamplePlane, comparedWith first: Double, _ second: Double) -> Double {
        GuardedDistance.distance(
            planar: sample.distanceSquared(latitude: latitude, longitude: longitude).squareRoot(),
            sinLatitude: sample.terms.sinLatitude, cosLatitude: sample.terms.cosLatitude, latitude1: latitude,
            longitude1: longitude, latitude2: sample.latitude, longitude2: sample.longitude, comparedWith: first, second)
    }

    /// A decision monotone in the distance from a circle's centre to the sample, taken on the plane only where the
    /// plane's error cannot change it (``GuardedDistance/decide(planar:sinLatitude:cosLatitude:latitude1:longitude1:latitude2:longitude2:_:)``).
    func decideOnCentreDistance<Decision: Equatable>(from sample: SamplePlane, _ decision: (Double) -> Decision)
        -> Decision
    {
        GuardedDistance.decide(
            planar: sample.distanceSquared(latitude: latitude, longitude: longitude).squareRoot(),
            sinLatitude: sample.terms.sinLatitude, cosLatitude: sample.terms.cosLatitude, latitude1: latitude,
            longitude1: longitude, latitude2: sample.latitude, longitude2: sample.longitude, decision)
    }

    /// ``decideOnCentreDistance(from:_:)`` at a position whose plane the caller has not computed.
    func decideOnCentreDistance<Decision: Equatable>(
        latitude pointLatitude: Double, longitude pointLongitude: Double, _ decision: (Double) -> Decision
    ) -> Decision {
        decideOnCentreDistance(from: SamplePlane(latitude: pointLatitude, longitude: pointLongitude), decision)
    }

    /// Whether a circle of `radius` metres (the slot's, or its exact value) contains the sample (the boundary is
    /// inside); polygons are asked through their table.
    @inline(__always)
    func circleContains(_ sample: SamplePlane, radius: Double) -> Bool {
        var clearance = 0.0
        return circleContains(sample, radius: radius, clearance: &clearance)
    }
}
