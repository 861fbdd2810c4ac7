/// A circle to monitor with the default options — entry and exit reported, everything else left to the profile —
/// given by its centre and radius alone.
///
/// What generators and catalogs hand a monitor on the registration fast path
/// (``MonitorState/init(settings:stride:seed:circles:restored:)``): a slot is written straight from these four
/// values, with the plane's terms computed once for the device's position, so registering a circle compiles no
/// ``CircleGeometry`` and builds no ``MonitoredRegion``.
public struct MonitoredCircle: Sendable, Equatable {
    /// The region's index in the run's region table.
    public var id: Int32
    /// The centre in degrees.
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double

    public init(id: Int32, latitude: Double, longitude: Double, radius: Double) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}

extension MonitoredRegion {
    /// The circle as a region with the default options (its geometry compiled).
    public init(_ circle: MonitoredCircle) {
        self.init(
            id: circle.id,
            geometry: .circle(
                CircleGeometry(center: Coordinate(unchecked: circle.latitude, circle.longitude), radius: circle.radius)))
    }

    /// The region as a ``MonitoredCircle`` when it is a circle with every option at its default (so the fast path
    /// registers it exactly as the general one would); `nil` otherwise.
    public var plainCircle: MonitoredCircle? {
        guard case .circle(let circle) = geometry, notifyOnEntry, notifyOnExit, notifyOnDwell == nil,
            loiteringDelay == nil, bufferDistance == nil, confirmationTime == nil, notificationResponsiveness == nil,
            assumedInside == nil
        else { return nil }
        return MonitoredCircle(
            id: id, latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius)
    }
}
