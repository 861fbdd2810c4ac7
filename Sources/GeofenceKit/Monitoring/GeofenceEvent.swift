/// The kinds of event a monitor reports. Raw values are stable: they index per-kind counters.
public enum EventKind: Int, Sendable, CaseIterable, CustomStringConvertible {
    case enter, exit, dwell, state, failed
    /// A stay at a place (`--visits`): its arrival or departure (``GeofenceEvent/visit``).
    case visit

    /// The name used in NDJSON events and reports.
    public var description: String {
        switch self {
        case .enter: "enter"
        case .exit: "exit"
        case .dwell: "dwell"
        case .state: "state"
        case .failed: "failed"
        case .visit: "visit"
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
    /// A shape the platform cannot monitor: a polygon under `ios`, `android` or `clmonitor`.
    case unsupportedShape
    /// A 21st condition of a `CLMonitor` (its `conditionLimitExceeded`).
    case conditionLimitExceeded

    public var description: String {
        switch self {
        case .tooManyRegions: "tooManyRegions"
        case .denied: "denied"
        case .radiusTooLarge: "radiusTooLarge"
        case .unsupportedShape: "unsupportedShape"
        case .conditionLimitExceeded: "conditionLimitExceeded"
        }
    }
}

/// The state of a `CLMonitor` condition that an event reports (`CLMonitor.Event.state`).
public enum ConditionState: UInt8, Sendable, CustomStringConvertible {
    case satisfied, unsatisfied, unmonitored

    public var description: String {
        switch self {
        case .satisfied: "satisfied"
        case .unsatisfied: "unsatisfied"
        case .unmonitored: "unmonitored"
        }
    }
}

/// One event for one device and one region, caused by a sample (or by registration).
///
/// Devices and regions are dense integer indices; the edges of the pipeline turn them back into names.
public struct GeofenceEvent: Sendable, Equatable {
    public var device: Int32
    public var region: Int32
    /// For `failed` events: the platform's error code (``failure`` says why).
    public var code: Int32
    public var kind: EventKind
    /// For `state` events: whether the device is inside.
    public var inside: Bool
    /// For `failed` events: the reason.
    public var failure: FailureReason?
    /// ``condition`` or ``visit`` in one byte (an event never has both): 0 none, 1 + a condition, 4 + a phase.
    /// Internal to the accessors below, which are inlinable: the event encoder reads them at every event.
    @usableFromInline var detail: UInt8 = 0
    /// The time of the sample that caused the event — with a delivery delay, the time the app receives it.
    public var time: Timestamp
    public var latitude: Double
    public var longitude: Double
    /// ``detectedAt``, or for a visit (never delayed) its ``arrival``, in microseconds; `.min` for none. With the
    /// one-byte fields in the padding, an event takes 48 bytes (40 without the fields of issue 14).
    @usableFromInline var extraMicroseconds: Int64 = .min

    /// Under the `clmonitor` profile: the condition's state the event reports.
    public var condition: ConditionState? {
        @inlinable @inline(__always) get { (1...3).contains(detail) ? ConditionState(rawValue: detail - 1) : nil }
        set { detail = newValue.map { $0.rawValue + 1 } ?? 0 }
    }

    /// For `visit` events: arrival or departure.
    public var visit: VisitPhase? {
        @inlinable @inline(__always) get { detail >= 4 ? VisitPhase(rawValue: detail - 4) : nil }
        set { detail = newValue.map { $0.rawValue + 4 } ?? 0 }
    }

    /// When the platform decided the event, if its delivery was delayed (``DeliveryDelay``); `time` is then later.
    public var detectedAt: Timestamp? {
        @inlinable @inline(__always) get {
            kind == .visit || extraMicroseconds == .min ? nil : Timestamp(microseconds: extraMicroseconds)
        }
        set { extraMicroseconds = newValue?.microseconds ?? .min }
    }

    /// For `visit` events: when the stay began.
    public var arrival: Timestamp? {
        @inlinable @inline(__always) get {
            kind != .visit || extraMicroseconds == .min ? nil : Timestamp(microseconds: extraMicroseconds)
        }
        set { extraMicroseconds = newValue?.microseconds ?? .min }
    }

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
