import Foundation

/// What a monitor reports when a region starts being monitored while the device may already be inside it.
public struct InitialTriggers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A `state` event for every region, inside or not (`requestState` / `didDetermineState`).
    public static let state = InitialTriggers(rawValue: 1)
    /// `enter` for the regions the device is inside (Android's `INITIAL_TRIGGER_ENTER`).
    public static let enter = InitialTriggers(rawValue: 2)
    /// `dwell` after the loitering delay for the regions the device is inside (`INITIAL_TRIGGER_DWELL`).
    public static let dwell = InitialTriggers(rawValue: 4)
    /// `exit` for the regions the device is outside (Android's `INITIAL_TRIGGER_EXIT`).
    public static let exit = InitialTriggers(rawValue: 8)

    /// Parses `none`, `state`, `enter`, `dwell`, `exit`, or a comma-separated combination such as `enter,dwell`;
    /// `nil` for anything else, an empty name (`""`, `enter,,dwell`) or `none` beside a trigger (`none,state`).
    public init?(text: String) {
        var triggers: InitialTriggers = []
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.contains(""), names.count == 1 || !names.contains("none") else { return nil }
        for name in names {
            switch name {
            case "none": break
            case "state": triggers.insert(.state)
            case "enter": triggers.insert(.enter)
            case "dwell": triggers.insert(.dwell)
            case "exit": triggers.insert(.exit)
            default: return nil
            }
        }
        self = triggers
    }

    /// `none`, or the triggers joined by commas in the order state, enter, dwell, exit.
    public var text: String {
        let names = [(InitialTriggers.state, "state"), (.enter, "enter"), (.dwell, "dwell"), (.exit, "exit")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}

/// A transition is reported only after the device is past the boundary by `bufferDistance` metres and has
/// stayed past it for `confirmationTime` seconds; in between nothing changes (no flapping at the edge).
public struct Hysteresis: Sendable, Equatable {
    public var bufferDistance: Double
    public var confirmationTime: Double
    /// For a region smaller than the buffer: entering needs only this fraction of its radius past the boundary
    /// (otherwise such a region could never be entered). Exiting always needs the whole buffer.
    public var smallRegionEntryFraction: Double

    public init(bufferDistance: Double = 0, confirmationTime: Double = 0, smallRegionEntryFraction: Double = 0.5) {
        self.bufferDistance = bufferDistance
        self.confirmationTime = confirmationTime
        self.smallRegionEntryFraction = smallRegionEntryFraction
    }

    public var isActive: Bool { bufferDistance > 0 || confirmationTime > 0 }

    /// How far inside the boundary a device must be to enter a region of `radius` metres.
    public func entryBuffer(radius: Double) -> Double {
        min(bufferDistance, radius * smallRegionEntryFraction)
    }
}

/// Android's confidence rule: a transition needs enough of the sample's accuracy circle on the new side.
public struct Confidence: Sendable, Equatable {
    /// Enter when at least this fraction of the accuracy circle overlaps the fence.
    public var enterFraction: Double
    /// Exit when at most this fraction overlaps.
    public var exitFraction: Double
    /// The same for fences smaller than `smallRadius` metres.
    public var smallEnterFraction: Double
    public var smallExitFraction: Double
    public var smallRadius: Double

    public init(
        enterFraction: Double = 0.85, exitFraction: Double = 0.15, smallEnterFraction: Double = 0.75,
        smallExitFraction: Double = 0.25, smallRadius: Double = 100
    ) {
        self.enterFraction = enterFraction
        self.exitFraction = exitFraction
        self.smallEnterFraction = smallEnterFraction
        self.smallExitFraction = smallExitFraction
        self.smallRadius = smallRadius
    }
}

/// What a platform does with a polygon region: `monitor.polygons`.
public enum PolygonHandling: String, Sendable, CaseIterable {
    /// The polygon is monitored as it is (the `exact` profile: the simulator's own geometry).
    case monitor
    /// Registration fails with `unsupportedShape`: Core Location and Android monitor circles only.
    case refuse
    /// The app registers the polygon's smallest enclosing circle with the platform and, when the circle's events
    /// arrive, tests the polygon itself: `enter` only when the device is inside the polygon then, `exit` when the
    /// circle's exit arrives for a device the app had inside. (Catching a polygon entered or left while inside the
    /// circle needs location updates, which this does not model.)
    case enclosingCircle
}

/// Which API's events a monitor reports: `CLLocationManager`-style region events, or iOS 17's `CLMonitor`.
public enum EventModel: String, Sendable {
    /// Region events: `enter` / `exit` / `dwell`, `state` as initial triggers say.
    case regions
    /// `CLMonitor` conditions: each event is a state change of a condition, reported as `enter` (`satisfied`) or
    /// `exit` (`unsatisfied`) with its `state`; the first determination of a condition is a `state` event; a
    /// refused condition (past the limit, denied, unsupported) is `failed` with state `unmonitored`.
    case conditions
}

/// The rules a monitor applies: the platform behaviour that a profile selects.
public struct MonitorSettings: Sendable, Equatable {
    /// How many regions one device may monitor; registrations past it fail.
    public var slotLimit: Int
    /// The error code of a `failed` event for a registration past the slot limit (or above `maximumRadius`).
    public var tooManyRegionsCode: Int32
    /// The error code of every registration of a device whose user denied location access.
    public var deniedCode: Int32
    public var initialTriggers: InitialTriggers
    public var hysteresis: Hysteresis
    /// Android's accuracy-circle rule; `nil` decides on the sample's position alone.
    public var confidence: Confidence?
    /// Regions whose radius exceeds this fail to register (Core Location's `maximumRegionMonitoringDistance`).
    public var maximumRadius: Double?
    /// Whether regions notify dwell when the region file does not say (`notifyOnDwell`).
    public var dwellByDefault: Bool
    /// Seconds inside before `dwell`, when the region does not give its own `loiteringDelay`.
    public var loiteringDelay: Double
    /// Which devices granted which location access, and how whenInUse apps are used.
    public var authorization: AuthorizationMix
    /// How long after the platform decides an event the app receives it (`monitor.delivery`).
    public var delivery = DeliveryDelay.instant
    /// What happens to polygon regions (`monitor.polygons`).
    public var polygons = PolygonHandling.monitor
    /// The error code of a `failed` event for a shape the platform cannot monitor (`monitor.unsupportedShapeCode`).
    public var unsupportedShapeCode: Int32 = 5
    /// Region events, or `CLMonitor` conditions (the `clmonitor` profile).
    public var eventModel = EventModel.regions
    /// Visit detection (`--visits`); `nil`: no `visit` events.
    public var visits: VisitSettings?

    public init(
        slotLimit: Int = 20, tooManyRegionsCode: Int32 = 5, deniedCode: Int32 = 4, initialTriggers: InitialTriggers = [],
        hysteresis: Hysteresis = Hysteresis(), confidence: Confidence? = nil, maximumRadius: Double? = nil,
        dwellByDefault: Bool = false, loiteringDelay: Double = 300, authorization: AuthorizationMix = AuthorizationMix()
    ) {
        self.slotLimit = slotLimit
        self.tooManyRegionsCode = tooManyRegionsCode
        self.deniedCode = deniedCode
        self.initialTriggers = initialTriggers
        self.hysteresis = hysteresis
        self.confidence = confidence
        self.maximumRadius = maximumRadius
        self.dwellByDefault = dwellByDefault
        self.loiteringDelay = loiteringDelay
        self.authorization = authorization
    }

    /// Exact geometry: 20 slots, failure code 5, first sample silent, no hysteresis, no dwell unless asked.
    public static let exact = MonitorSettings()

    /// Whether issue 14's rules need the rich path: delivery delays, a `state` per transition, `CLMonitor` events,
    /// or `INITIAL_TRIGGER_EXIT`. (A region with `notificationResponsiveness` or a polygon monitored through its
    /// enclosing circle makes a monitor rich when it registers; visits need neither path.)
    public var needsRichPath: Bool {
        !delivery.isInstant || statePerTransition || eventModel == .conditions || initialTriggers.contains(.exit)
    }

    /// Whether every transition also reports a `state` event, as Core Location's `didDetermineState` is called on
    /// every boundary transition: when the initial triggers include `state`, for region events.
    public var statePerTransition: Bool { initialTriggers.contains(.state) && eventModel == .regions }
}
