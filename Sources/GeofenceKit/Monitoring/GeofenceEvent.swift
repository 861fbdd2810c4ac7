/// The kinds of event a monitor reports. Raw values are stable: they index per-kind counters.
public enum EventKind: Int, Sendable, CaseIterable, CustomStringConvertible {
    case enter, exit, dwell, state, failed

    /// The name used in NDJSON events and reports.
    public var description: String {
        switch self {
        case .enter: "enter"
        case .exit: "exit"
        case .dwell: "dwell"
        case .state: "state"
        case .failed: "failed"
        }
    }
}

/// Why a region could not be monitored.
public enum FailureReason: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// More registrations than the profile's slot limit (Core Location error 5, Android 1001).
    case tooManyRegions
    /// The user denied location access (Core Location error 4, Android 1004).
    case denied
    /// A radius above the platform's maximum monitoring distance (Core Location error 5).
    case radiusTooLarge

    public var description: String {
        switch self {
        case .tooManyRegions: "tooManyRegions"
        case .denied: "denied"
        case .radiusTooLarge: "radiusTooLarge"
        }
    }
}

/// One event for one device and one region, caused by a sample (or by registration).
///
/// Devices and regions are dense integer indices; the edges of the pipeline turn them back into names.
public struct GeofenceEvent: Sendable, Equatable {
    public var device: Int32
    public var region: Int32
    public var kind: EventKind
    /// For `state` events: whether the device is inside.
    public var inside: Bool
    /// For `failed` events: the reason and the platform's error code.
    public var failure: FailureReason?
    public var code: Int32
    /// The time of the sample that caused the event.
    public var time: Timestamp
    public var latitude: Double
    public var longitude: Double

    public init(
        device: Int32, region: Int32, kind: EventKind, time: Timestamp, latitude: Double, longitude: Double,
        inside: Bool = false, failure: FailureReason? = nil, code: Int32 = 0
    ) {
        self.device = device
        self.region = region
        self.kind = kind
        self.inside = inside
        self.failure = failure
        self.code = code
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
    }
}
