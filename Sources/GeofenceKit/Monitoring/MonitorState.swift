/// The monitoring state of a set of devices: which regions each one monitors, whether it is inside each, and
/// the timers (confirmation, dwell) that are running.
///
/// A pure state machine driven by sample time: ``evaluate(device:latitude:longitude:time:accuracy:into:)``
/// takes one sample and appends the events it causes; ``advance(to:into:)`` moves the clock forward for devices
/// that sent nothing (the source's watermark) and fires the timers that fall due. There are no clocks, actors or
/// I/O inside, so a test drives it with hand-written samples and timestamps.
///
/// Layout: devices are dense integers. A table serves the devices `first + k * stride` (one shard of the run),
/// so device `d` lives at row `d / stride`. Each device's regions occupy a contiguous run of slots, registered
/// when its first sample arrives; a slot's flags (inside, notify) are one byte beside it. With the `exact`
/// rules and no dwell, a sample costs one containment test per slot; the richer rules (hysteresis, confidence,
/// dwell, authorization) take a second path.
///
/// The type is spread over files by concept: this one holds the storage and the sample loop;
/// `MonitorState+Registration` the slot assignment, `+PlatformRules` the rich path, `+Timers` confirmation and
/// dwell timers and event delivery, `+Snapshot` export and restore. Its storage is internal (not private) so
/// that those extensions can reach it; nothing outside this type touches it.
public struct MonitorState: Sendable {
    /// The regions a device asks to monitor, in registration order.
    public typealias RegionLookup = @Sendable (_ device: Int32) -> [MonitoredRegion]
    /// Appends the circles a device asks to monitor to `circles`, in registration order: the fast path for regions
    /// that are plain circles (``MonitoredCircle``). The monitor hands over the same buffer for every device.
    public typealias CircleLookup = @Sendable (_ device: Int32, _ circles: inout [MonitoredCircle]) -> Void
    /// A ``CircleLookup`` that also receives the position of the sample that registers the device (its first, or
    /// its first after a restart): a generator that places circles around a device's start can take the start
    /// from there instead of computing it again.
    public typealias PositionedCircleLookup = @Sendable (
        _ device: Int32, _ latitude: Double, _ longitude: Double, _ circles: inout [MonitoredCircle]
    ) -> Void
    /// A device's state saved by an earlier run, if any.
    public typealias StateLookup = @Sendable (_ device: Int32) -> DeviceState?

    public let settings: MonitorSettings
    let regionsOf: RegionSource
    /// The buffer a ``CircleLookup`` fills at each registration (kept, so that registering allocates nothing).
    var circleBuffer: [MonitoredCircle] = []
    let restoredState: StateLookup?
    let stride: Int32
    /// `device % stride` of every device of this table (set by the first one).
    var residue: Int32 = 0
    /// Regions whose registration failed, per device that had any.
    var failedRegions: [Int32: [Int32]] = [:]
    let seed: UInt64
    /// Whether samples take the rich path (``MonitorState+PlatformRules``) instead of the exact one.
    ///
    /// The exact path is one containment test and a flag flip per slot, with no timers and no per-slot state
    /// beyond the flags; it is what the `exact` profile runs. The rich path decides a side with the confidence
    /// or hysteresis rule, keeps per-slot timers (`pendingSince`, `dwellDue`) and fires them. The settings decide
    /// it (hysteresis, confidence, authorization, dwell by default), or a region that asks for dwell or its own
    /// hysteresis, or a restored timer; once true it stays true, and from then every slot has timer storage.
    var isRich: Bool

    /// Per device row (``DeviceRow``): its block of slots, latest sample and the exact path's disc.
    var rows: [DeviceRow] = []
    var schedules: [Int32: ForegroundSchedule] = [:]

    /// Every per-slot field (``SlotTable``).
    var slots = SlotTable()
    /// Polygons, referred to by their slots.
    var polygons: [PolygonGeometry] = []

    var timers = TimerQueue()
    /// The shared catalog devices choose regions from, when they do (``MonitorState+Selection``).
    var selection: CatalogSelection?

    // Issue 14's platform behaviour, allocated only where a profile or region needs it.
    /// Per device row, with delivery delays: when its latest delayed event is delivered (`.min`: none yet).
    var deliveredUntil: [Int64] = []
    /// Stop detection, with `--visits`.
    var visits: VisitDetector?
    /// A stable key of a (device, region) pair for delivery delays — from their names, so a restarted stream whose
    /// devices get other indices draws the same delays; `nil`: the indices.
    public var deliveryKey: (@Sendable (_ device: Int32, _ region: Int32) -> UInt64)?

    /// Samples evaluated, and samples rejected because they were older than the device's previous one.
    public internal(set) var evaluatedCount = 0
    public internal(set) var outOfOrderCount = 0
    /// Devices that have sent at least one sample.
    public internal(set) var deviceCount = 0
    /// Events not delivered because the app was in the background (whenInUse authorization).
    public internal(set) var suppressedInBackground = 0
    /// Events delivered late (``MonitorSettings/delivery``), and those of them held back behind an earlier event of
    /// their device beyond their own delay.
    public internal(set) var delayedCount = 0
    public internal(set) var heldBackCount = 0

    static let notifyOnEntry: UInt8 = 1
    static let notifyOnExit: UInt8 = 2
    static let inside: UInt8 = 4
    static let notifyOnDwell: UInt8 = 8
    /// An enclosing-circle slot's app-side state: the device is inside the polygon (`inside` is the circle's).
    static let appInside: UInt8 = 16
    static let none: Int64 = .min

    /// - Parameters:
    ///   - settings: the platform rules to apply.
    ///   - stride: the number of shards; this table serves devices whose index modulo `stride` is fixed.
    ///   - seed: the seed of per-device draws (authorization status, foreground sessions).
    ///   - regions: the regions a device registers on its first sample.
    ///   - restored: a device's state from an earlier run: its first sample here continues from it.
    public init(
        settings: MonitorSettings, stride: Int = 1, seed: UInt64 = 0, regions: @escaping RegionLookup,
        restored: StateLookup? = nil
    ) {
        self.init(settings: settings, stride: stride, seed: seed, source: .regions(regions), restored: restored)
    }

    /// A state whose devices register plain circles (``MonitoredCircle``): the same rules and events as
    /// ``init(settings:stride:seed:regions:restored:)`` with those circles as regions, without compiling them.
    public init(
        settings: MonitorSettings, stride: Int = 1, seed: UInt64 = 0, circles: @escaping CircleLookup,
        restored: StateLookup? = nil
    ) {
        self.init(
            settings: settings, stride: stride, seed: seed, source: .circles({ device, _, _, buffer in circles(device, &buffer) }),
            restored: restored)
    }

    /// ``init(settings:stride:seed:circles:restored:)`` whose lookup also receives the position each device
    /// registers at.
    public init(
        settings: MonitorSettings, stride: Int = 1, seed: UInt64 = 0, positionedCircles: @escaping PositionedCircleLookup,
        restored: StateLookup? = nil
    ) {
        self.init(
            settings: settings, stride: stride, seed: seed, source: .circles(positionedCircles), restored: restored)
    }

    private init(settings: MonitorSettings, stride: Int, seed: UInt64, source: RegionSource, restored: StateLookup?) {
        precondition(stride >= 1, "stride must be at least 1")
        self.settings = settings
        self.stride = Int32(stride)
        self.seed = seed
        self.regionsOf = source
        self.restoredState = restored
        isRich = settings.hysteresis.isActive || settings.confidence != nil || settings.authorization.isActive
            || settings.dwellByDefault || settings.initialTriggers.contains(.dwell) || settings.needsRichPath
        visits = settings.visits.map(VisitDetector.init)
        if isRich { slots.keepTimers() }
    }

    /// Slots in use over all devices (monitored regions).
    public var monitoredRegionCount: Int { slots.count - (selection?.vacancies ?? 0) }

    /// Reserves room for `devices` devices of this table and `regions` registrations in all, so that a large run
    /// allocates its tables once instead of doubling them (a doubling of the slot table is the peak of memory).
    public mutating func reserveCapacity(devices: Int, regions: Int) {
        rows.reserveCapacity(devices)
        slots.reserveCapacity(regions)
    }

    /// Evaluates one sample and appends the events it causes to `events`.
    ///
    /// The first sample of a device registers its regions: those refused (past the slot limit, too large, or
    /// every one for a denied device) produce `failed` events and the rest take their state from this sample as
    /// ``MonitorSettings/initialTriggers`` says. Later samples first fire the device's timers that fell due
    /// before them, then produce `enter` / `exit` where the region asks for them, after the profile's
    /// hysteresis or confidence rule; the boundary counts as inside.
    /// - Parameter accuracy: the sample's horizontal accuracy in metres, for the confidence rule.
    /// - Returns: `false` when the sample is older than the device's previous one: it is rejected and changes
    ///   nothing.
    public mutating func evaluate(
        device: Int32, latitude: Double, longitude: Double, time: Timestamp, accuracy: Double? = nil,
        into events: inout [GeofenceEvent]
    ) -> Bool {
        evaluate(
            device: device, latitude: latitude, longitude: longitude, time: time, accuracy: accuracy,
            regions: regionsOf, into: &events)
    }

    /// ``evaluate(device:latitude:longitude:time:accuracy:into:)`` with the table's ``regionsOf`` taken out by the
    /// caller: the batch call takes it once a batch, so that registering a device does not retain and release the
    /// lookup (on the one lookup a run's shards share, those atomic counts went back and forth between their cores:
    /// swift_release 2.4 % of registering a million devices).
    mutating func evaluate(
        device: Int32, latitude: Double, longitude: Double, time: Timestamp, accuracy: Double?,
        regions: RegionSource, into events: inout [GeofenceEvent]
    ) -> Bool {
        let row = stride == 1 ? Int(device) : Int(device / stride)
        if row >= rows.count { grow(toInclude: row) }
        var previous = rows[row].time
        if previous == Self.none {
            guard
                let restored = firstSample(
                    device: device, row: row, latitude: latitude, longitude: longitude, time: time, regions: regions,
                    into: &events)
            else { return true }
            previous = restored
        }
        guard time.microseconds >= previous else {
            outOfOrderCount += 1
            return false
        }
        evaluatedCount += 1
        guard isRich else {
            evaluateExact(device: device, row: row, latitude: latitude, longitude: longitude, time: time, into: &events)
            if selection != nil { refreshSelectionIfDue(device: device, row: row, latitude: latitude, longitude: longitude, time: time, into: &events) }
            // Visits need no rich rule: one check per sample, outside the slot loop.
            visits?.observe(device: device, row: row, latitude: latitude, longitude: longitude, time: time.microseconds, into: &events)
            return true
        }
        let start = Int(rows[row].slotStart)
        let end = start + Int(rows[row].slotCount)
        fireDueTimers(device: device, row: row, slots: start..<end, upTo: time.microseconds, into: &events)
        rows[row].time = time.microseconds
        rows[row].latitude = latitude
        rows[row].longitude = longitude
        let sample = SamplePlane(latitude: latitude, longitude: longitude)
        for slot in start..<end {
            evaluateRich(slot: slot, device: device, row: row, sample: sample, time: time, accuracy: accuracy, into: &events)
        }
        if selection != nil { refreshSelectionIfDue(device: device, row: row, latitude: latitude, longitude: longitude, time: time, into: &events) }
        visits?.observe(device: device, row: row, latitude: latitude, longitude: longitude, time: time.microseconds, into: &events)
        return true
    }

    /// A device's first sample here: it continues from its restored state (returns that state's time, and the sample
    /// is then evaluated as any other) or registers its regions at this sample (returns `nil`: nothing more to do).
    /// Out of line, so that the sample loop stays small.
    @inline(never)
    private mutating func firstSample(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp, regions: RegionSource,
        into events: inout [GeofenceEvent]
    ) -> Int64? {
        if let state = restoredState?(device) {
            restore(
                state, row: row, latitude: latitude, longitude: longitude, time: time, regions: regions, into: &events)
            if state.time != Self.none { return state.time }
        }
        rows[row].time = time.microseconds
        rows[row].latitude = latitude
        rows[row].longitude = longitude
        register(
            device: device, row: row, latitude: latitude, longitude: longitude, time: time, restoring: nil,
            regions: regions, into: &events)
        visits?.observe(device: device, row: row, latitude: latitude, longitude: longitude, time: time.microseconds, into: &events)
        evaluatedCount += 1
        return nil
    }

    /// Whether `device` is inside the region in its `slot`-th slot, or `nil` when it has no such slot.
    public func isInside(device: Int32, slot: Int) -> Bool? {
        let row = Int(device / stride)
        guard row < rows.count, rows[row].time != Self.none, slot >= 0, slot < Int(rows[row].slotCount) else {
            return nil
        }
        return slots.packed[Int(rows[row].slotStart) + slot].flags & Self.inside != 0
    }
}
