/// A region packed for the monitor's inner loop: a circle's precomputed plane in 72 bytes, or a reference to a
/// polygon kept aside.
///
/// ``CircleGeometry`` holds the same plane with its thresholds squared (96 bytes); a million devices with 20
/// regions each need the smaller form to fit in memory, and the smaller form keeps a device's 20 regions in 1.4 KB
/// of cache. The thresholds (r ∓ margin)² are two multiplications away. The decision is the same as
/// ``CircleGeometry/contains(latitude:longitude:)``: the plane where it is clear, the exact geodesic within the
/// margin of the boundary.
struct PackedRegion: Sendable {
    var latitude: Double
    var longitude: Double
    var sinLatitude: Double
    var cosLatitude: Double
    var primeVerticalRadius: Double
    var meridionalRadius: Double
    /// Metres; for a polygon, `-(index + 1)` into the monitor's polygon table.
    var radius: Double
    var primeVerticalRadiusSlope: Float
    var meridionalRadiusSlope: Float
    /// The plane's error bound (rounded up to a `Float`; +∞ where the plane is not trusted).
    var margin: Float

    init(_ circle: CircleGeometry) {
        latitude = circle.center.latitude
        longitude = circle.center.longitude
        sinLatitude = circle.sinLatitude
        cosLatitude = circle.cosLatitude
        primeVerticalRadius = circle.primeVerticalRadius
        meridionalRadius = circle.meridionalRadius
        radius = circle.radius
        primeVerticalRadiusSlope = Float(circle.primeVerticalRadiusSlope)
        meridionalRadiusSlope = Float(circle.meridionalRadiusSlope)
        let margin = Float(circle.margin)
        self.margin = Double(margin) >= circle.margin ? margin : margin.nextUp
    }

    init(polygonIndex: Int) {
        latitude = 0
        longitude = 0
        sinLatitude = 0
        cosLatitude = 1
        primeVerticalRadius = 0
        meridionalRadius = 0
        radius = -Double(polygonIndex + 1)
        primeVerticalRadiusSlope = 0
        meridionalRadiusSlope = 0
        margin = 0
    }

    @inline(__always) var isPolygon: Bool { radius < 0 }
    @inline(__always) var polygonIndex: Int { Int(-radius) - 1 }

    /// The circle's squared distance on the mid-latitude plane, as ``CircleGeometry`` computes it.
    @inline(__always)
    func planarDistanceSquared(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Double {
        MidLatitudePlane.distanceSquared(
            centerLatitude: latitude, centerLongitude: longitude, sinLatitude: sinLatitude, cosLatitude: cosLatitude,
            primeVerticalRadius: primeVerticalRadius, primeVerticalRadiusSlope: Double(primeVerticalRadiusSlope),
            meridionalRadius: meridionalRadius, meridionalRadiusSlope: Double(meridionalRadiusSlope),
            latitude: pointLatitude, longitude: pointLongitude)
    }

    /// The distance from a circle's centre to the point, exact enough to be compared with two thresholds: the
    /// plane where it is further than its error bound from both, the geodesic otherwise (``GuardedDistance``).
    func centreDistance(
        latitude pointLatitude: Double, longitude pointLongitude: Double, comparedWith first: Double, _ second: Double
    ) -> Double {
        GuardedDistance.distance(
            planar: planarDistanceSquared(latitude: pointLatitude, longitude: pointLongitude).squareRoot(),
            sinLatitude: sinLatitude, cosLatitude: cosLatitude, latitude1: latitude, longitude1: longitude,
            latitude2: pointLatitude, longitude2: pointLongitude, comparedWith: first, second)
    }

    /// A decision monotone in the distance from a circle's centre to the point, taken on the plane only where the
    /// plane's error cannot change it (``GuardedDistance/decide(planar:sinLatitude:cosLatitude:latitude1:longitude1:latitude2:longitude2:_:)``).
    func decideOnCentreDistance<Decision: Equatable>(
        latitude pointLatitude: Double, longitude pointLongitude: Double, _ decision: (Double) -> Decision
    ) -> Decision {
        GuardedDistance.decide(
            planar: planarDistanceSquared(latitude: pointLatitude, longitude: pointLongitude).squareRoot(),
            sinLatitude: sinLatitude, cosLatitude: cosLatitude, latitude1: latitude, longitude1: longitude,
            latitude2: pointLatitude, longitude2: pointLongitude, decision)
    }

    /// Whether a circle contains the point (the boundary is inside); polygons are asked through their table.
    @inline(__always)
    func circleContains(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Bool {
        let planarSquared = planarDistanceSquared(latitude: pointLatitude, longitude: pointLongitude)
        let margin = Double(self.margin)
        let inner = radius - margin
        let outer = radius + margin
        if planarSquared > outer * outer { return false }
        if inner > 0 && planarSquared <= inner * inner { return true }
        return Geodesic.distance(
            latitude1: latitude, longitude1: longitude, latitude2: pointLatitude, longitude2: pointLongitude) <= radius
    }
}
