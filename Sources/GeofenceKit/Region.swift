/// A region as a user describes it: an identifier, a shape, and which transitions to notify.
public struct Region: Sendable {
    public var id: String
    public var geometry: RegionGeometry
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// Whether staying inside for ``loiteringDelay`` fires a `dwell` event.
    public var notifyOnDwell: Bool?
    /// Seconds a device must stay inside before `dwell`; `nil` uses the profile's default.
    public var loiteringDelay: Double?
    /// This region's hysteresis (metres past the boundary, seconds there); `nil` uses the profile's.
    public var bufferDistance: Double?
    public var confirmationTime: Double?
    /// The devices that monitor this region; `nil` means every device.
    public var devices: [String]?
    /// Android's `notificationResponsiveness` (seconds); `nil`: none.
    public var notificationResponsiveness: Double?
    /// Under `clmonitor`, the state the condition starts by assuming (`true`: satisfied); `nil`: unknown.
    public var assumedInside: Bool?

    /// Inlinable so that a decoder builds the region in place: called across modules, it was built and then
    /// copied, its strings and device list retained and released, for every feature of a regions file.
    @inlinable
    public init(
        id: String, geometry: RegionGeometry, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        devices: [String]? = nil, notifyOnDwell: Bool? = nil, loiteringDelay: Double? = nil,
        bufferDistance: Double? = nil, confirmationTime: Double? = nil
    ) {
        self.bufferDistance = bufferDistance
        self.confirmationTime = confirmationTime
        self.id = id
        self.geometry = geometry
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.devices = devices
        self.notifyOnDwell = notifyOnDwell
        self.loiteringDelay = loiteringDelay
    }
}
