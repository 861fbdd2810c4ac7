/// A region packed for the monitor's inner loop: a circle's centre and radius in 24 bytes, or a reference to a
/// polygon kept aside.
///
/// Nothing derived is kept: the plane's trigonometry and radii of curvature are computed once per sample at the
/// sample's position (``SamplePlane``), and the plane's error bound is a cheap function of the radius there. A
/// million devices with 20 regions each fit in memory that way, and a device's 20 regions take 480 bytes of cache.
/// The decision is the same as ``CircleGeometry/contains(latitude:longitude:)``: the plane where it is clear, the
/// exact geodesic within the margin of the boundary.
struct PackedRegion: Sendable {
    var latitude: Double
    var longitude: Double
    /// Metres; for a polygon, `-(index + 1)` into the monitor's polygon table.
    var radius: Double

    init(latitude: Double, longitude: Double, radius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    init(_ circle: CircleGeometry) {
        self.init(latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius)
    }

    init(polygonIndex: Int) {
        self.init(latitude: 0, longitude: 0, radius: -Double(polygonIndex + 1))
    }

    @inline(__always) var isPolygon: Bool { radius < 0 }
    @inline(__always) var polygonIndex: Int { Int(-radius) - 1 }

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

    /// Whether a circle contains the sample (the boundary is inside); polygons are asked through their table.
    @inline(__always)
    func circleContains(_ sample: SamplePlane) -> Bool {
        var clearance = 0.0
        return circleContains(sample, clearance: &clearance)
    }
}
