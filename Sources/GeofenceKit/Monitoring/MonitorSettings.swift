/// What a monitor reports when a region starts being monitored while the device is already inside.
public enum InitialTrigger: String, Sendable, CaseIterable {
    /// Set the state silently, as Core Location does.
    case none
    /// Report a `state` event for every region, inside or not (`requestState` / `didDetermineState`).
    case state
    /// Report `enter` for the regions the device is inside (Android's `INITIAL_TRIGGER_ENTER`).
    case enter
}

/// The rules a monitor applies: the platform behaviour that a profile selects.
public struct MonitorSettings: Sendable, Equatable {
    /// How many regions one device may monitor; registrations past it fail.
    public var slotLimit: Int
    /// The error code of a `failed` event for a registration past the slot limit.
    public var tooManyRegionsCode: Int32
    public var initialTrigger: InitialTrigger

    public init(slotLimit: Int = 20, tooManyRegionsCode: Int32 = 5, initialTrigger: InitialTrigger = .none) {
        self.slotLimit = slotLimit
        self.tooManyRegionsCode = tooManyRegionsCode
        self.initialTrigger = initialTrigger
    }

    /// Exact geometry: 20 slots, failure code 5, first sample silent, no hysteresis, no dwell.
    public static let exact = MonitorSettings()
}
