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
    /// The devices that monitor this region; `nil` means every device.
    public var devices: [String]?

    public init(
        id: String, geometry: RegionGeometry, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        devices: [String]? = nil, notifyOnDwell: Bool? = nil, loiteringDelay: Double? = nil
    ) {
        self.id = id
        self.geometry = geometry
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.devices = devices
        self.notifyOnDwell = notifyOnDwell
        self.loiteringDelay = loiteringDelay
    }
}
