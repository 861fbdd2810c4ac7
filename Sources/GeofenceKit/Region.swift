/// A region as a user describes it: an identifier, a shape, and which transitions to notify.
public struct Region: Sendable {
    public var id: String
    public var geometry: RegionGeometry
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// The devices that monitor this region; `nil` means every device.
    public var devices: [String]?

    public init(
        id: String, geometry: RegionGeometry, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        devices: [String]? = nil
    ) {
        self.id = id
        self.geometry = geometry
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.devices = devices
    }
}
