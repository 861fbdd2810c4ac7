/// The platforms a monitor can reproduce: each a documented set of defaults that a user can override key by key.
public enum MonitoringProfile: String, Sendable, CaseIterable {
    /// Exact geometry: every crossing, no hysteresis, no dwell unless a region asks, 20 slots, failure code 5.
    case exact
    /// Core Location (`CLLocationManager` region monitoring).
    case ios
    /// Android's `GeofencingClient`.
    case android

    public var settings: MonitorSettings {
        switch self {
        case .exact:
            return .exact
        case .ios:
            // 20 regions per app; over the limit, or above the maximum monitoring distance,
            // kCLErrorRegionMonitoringFailure (5); denied: kCLErrorRegionMonitoringDenied (4). Apple's testing
            // guidance: a crossing counts once the device is about 200 m past the boundary and stays ~20 s.
            // A region you are already inside fires no enter; requestState tells its state.
            return MonitorSettings(
                slotLimit: 20, tooManyRegionsCode: 5, deniedCode: 4, initialTriggers: [.state],
                hysteresis: Hysteresis(bufferDistance: 200, confirmationTime: 20), confidence: nil,
                maximumRadius: 400_000, dwellByDefault: false, loiteringDelay: 300)
        case .android:
            // 100 geofences per app (GEOFENCE_TOO_MANY_GEOFENCES, 1001); denied: GEOFENCE_INSUFFICIENT_LOCATION_
            // PERMISSION (1004); ENTER, EXIT and DWELL (after the loitering delay); INITIAL_TRIGGER_ENTER and
            // INITIAL_TRIGGER_DWELL; transitions decided on the accuracy circle (85 % / 15 %, small fences 75 % /
            // 25 %).
            return MonitorSettings(
                slotLimit: 100, tooManyRegionsCode: 1001, deniedCode: 1004, initialTriggers: [.enter, .dwell],
                hysteresis: Hysteresis(), confidence: Confidence(), maximumRadius: nil, dwellByDefault: true,
                loiteringDelay: 300)
        }
    }
}
