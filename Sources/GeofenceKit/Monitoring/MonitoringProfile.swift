/// The platforms a monitor can reproduce: each a documented set of defaults that a user can override key by key.
public enum MonitoringProfile: String, Sendable, CaseIterable {
    /// Exact geometry: every crossing, no hysteresis, no dwell unless a region asks, 20 slots, failure code 5.
    case exact
    /// Core Location (`CLLocationManager` region monitoring).
    case ios
    /// Android's `GeofencingClient`.
    case android
    /// iOS 17's `CLMonitor`: conditions whose state changes are the events.
    case clmonitor

    /// Core Location's region events "typically arrive within 3-5 minutes": a median of 3, a 95th percentile of 5.
    public static let iosDelivery = DeliveryDelay(.lognormal(median: 180, p95: 300))
    /// Android's geofence alerts: "usually less than 2 minutes", 2-3 under background location limits, up to 6
    /// minutes for a device that was stationary: a median of 2 minutes, a 95th percentile of 6.
    public static let androidDelivery = DeliveryDelay(.lognormal(median: 120, p95: 360))

    public var settings: MonitorSettings {
        switch self {
        case .exact:
            return .exact
        case .ios:
            // 20 regions per app; over the limit, or above the maximum monitoring distance,
            // kCLErrorRegionMonitoringFailure (5); denied: kCLErrorRegionMonitoringDenied (4). Apple's testing
            // guidance: a crossing counts once the device is about 200 m past the boundary and stays ~20 s.
            // A region you are already inside fires no enter; requestState tells its state, and didDetermineState
            // is also called on every transition. Events "typically arrive within 3-5 minutes"; circles only.
            var settings = MonitorSettings(
                slotLimit: 20, tooManyRegionsCode: 5, deniedCode: 4, initialTriggers: [.state],
                hysteresis: Hysteresis(bufferDistance: 200, confirmationTime: 20), confidence: nil,
                maximumRadius: 400_000, dwellByDefault: false, loiteringDelay: 300)
            settings.delivery = Self.iosDelivery
            settings.polygons = .refuse
            settings.unsupportedShapeCode = 5
            return settings
        case .android:
            // 100 geofences per app (GEOFENCE_TOO_MANY_GEOFENCES, 1001); denied: GEOFENCE_INSUFFICIENT_LOCATION_
            // PERMISSION (1004); ENTER and EXIT, DWELL (after the loitering delay) only for geofences whose
            // transition types ask for it; INITIAL_TRIGGER_ENTER and INITIAL_TRIGGER_DWELL (the request builder's
            // default); transitions decided on the accuracy circle (85 % / 15 %, small fences 75 % / 25 %); alerts
            // "usually" within 2 minutes, 2-3 minutes under background limits, up to 6 when stationary; circles
            // only (Geofence.Builder has setCircularRegion alone).
            var settings = MonitorSettings(
                slotLimit: 100, tooManyRegionsCode: 1001, deniedCode: 1004, initialTriggers: [.enter, .dwell],
                hysteresis: Hysteresis(), confidence: Confidence(), maximumRadius: nil, dwellByDefault: false,
                loiteringDelay: 300)
            settings.delivery = Self.androidDelivery
            settings.polygons = .refuse
            settings.unsupportedShapeCode = 10
            return settings
        case .clmonitor:
            // CLMonitor (iOS 17+): the same engine as region monitoring (limits, thresholds, delays, circles only
            // — CLCircularGeographicCondition), reported as condition state changes; it has no error codes.
            var settings = MonitoringProfile.ios.settings
            settings.eventModel = .conditions
            settings.tooManyRegionsCode = 0
            settings.deniedCode = 0
            settings.unsupportedShapeCode = 0
            return settings
        }
    }
}
