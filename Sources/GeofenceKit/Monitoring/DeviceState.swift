/// What a monitor remembers of one device, so that a restarted run continues where the last one stopped: no
/// `enter` again for a region the device was already inside, a pending dwell still fires once, and a failed
/// registration is not reported twice.
///
/// Devices and regions are the run's dense indices; the pipeline turns them into names when it writes a snapshot
/// and back when it reads one, so identifiers stay stable across runs whatever the indices.
public struct DeviceState: Sendable, Equatable {
    public struct Region: Sendable, Equatable {
        public var region: Int32
        public var inside: Bool
        /// When a transition started waiting for its confirmation time (hysteresis), if one is.
        public var pendingSince: Int64?
        /// When a dwell falls due, if one is pending.
        public var dwellDue: Int64?
        /// For a polygon monitored through its enclosing circle (`inside` is the circle's): whether the app has the
        /// device inside the polygon.
        public var appInside: Bool?

        public init(region: Int32, inside: Bool, pendingSince: Int64? = nil, dwellDue: Int64? = nil, appInside: Bool? = nil) {
            self.region = region
            self.inside = inside
            self.pendingSince = pendingSince
            self.dwellDue = dwellDue
            self.appInside = appInside
        }
    }

    /// Where and when a device last chose its catalog regions (``SelectionStrategy/nearest``): it chooses again
    /// once it is `refreshDistance` from there, or `refreshInterval` after.
    public struct Choice: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        /// Microseconds since the epoch.
        public var time: Int64

        public init(latitude: Double, longitude: Double, time: Int64) {
            self.latitude = latitude
            self.longitude = longitude
            self.time = time
        }
    }

    public var device: Int32
    /// The device's latest sample.
    public var time: Int64
    public var latitude: Double
    public var longitude: Double
    public var regions: [Region]
    /// Regions whose registration failed (already reported).
    public var failed: [Int32]
    /// With delivery delays: the delivery time of the device's latest delayed event (later events are not
    /// delivered before it, so a device's events stay in order).
    public var deliveredUntil: Int64?
    /// Under `nearest` selection: the device's last choice (its catalog regions are those of `regions` that are not
    /// its own). A restored device keeps them until its refresh rule says to choose again.
    public var chosen: Choice?
    /// With coverage: the device in the catalog's unlimited evaluation (``CoverageTracker``), which a restarted
    /// run's coverage continues.
    public var coverage: CoverageState?

    public init(
        device: Int32, time: Int64, latitude: Double, longitude: Double, regions: [Region], failed: [Int32] = [],
        deliveredUntil: Int64? = nil, chosen: Choice? = nil, coverage: CoverageState? = nil
    ) {
        self.deliveredUntil = deliveredUntil
        self.chosen = chosen
        self.coverage = coverage
        self.device = device
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.regions = regions
        self.failed = failed
    }
}
