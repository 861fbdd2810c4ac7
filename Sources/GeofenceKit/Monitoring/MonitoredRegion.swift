/// A region as a monitor evaluates it: a dense identifier, compiled geometry and notify flags.
public struct MonitoredRegion: Sendable {
    /// The region's index in the run's region table; names are resolved at the edges.
    public var id: Int32
    public var geometry: RegionGeometry
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// Whether to report `dwell`; `nil` leaves it to the profile.
    public var notifyOnDwell: Bool?
    /// Seconds inside before `dwell`; `nil` leaves it to the profile.
    public var loiteringDelay: Double?
    /// This region's hysteresis; `nil` leaves it to the profile.
    public var bufferDistance: Double?
    public var confirmationTime: Double?
    /// Android's `notificationResponsiveness` in seconds: the service looks for this region's transitions once per
    /// that period, which adds a wait to the delivery; `nil`: none.
    public var notificationResponsiveness: Double?
    /// Under `clmonitor`: the state a condition starts by assuming (`true`: satisfied, `false`: unsatisfied);
    /// `nil`: `unknown`, determined at registration.
    public var assumedInside: Bool?

    public init(
        id: Int32, geometry: RegionGeometry, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        notifyOnDwell: Bool? = nil, loiteringDelay: Double? = nil, bufferDistance: Double? = nil,
        confirmationTime: Double? = nil, notificationResponsiveness: Double? = nil, assumedInside: Bool? = nil
    ) {
        self.notificationResponsiveness = notificationResponsiveness
        self.assumedInside = assumedInside
        self.bufferDistance = bufferDistance
        self.confirmationTime = confirmationTime
        self.id = id
        self.geometry = geometry
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.notifyOnDwell = notifyOnDwell
        self.loiteringDelay = loiteringDelay
    }
}
