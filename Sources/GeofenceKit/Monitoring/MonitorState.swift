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
public struct MonitorState: Sendable {
    /// The regions a device asks to monitor, in registration order.
    public typealias RegionLookup = @Sendable (_ device: Int32) -> [MonitoredRegion]
    /// A device's state saved by an earlier run, if any.
    public typealias StateLookup = @Sendable (_ device: Int32) -> DeviceState?

    public let settings: MonitorSettings
    private let regionsOf: RegionLookup
    private let restoredState: StateLookup?
    private let stride: Int32
    /// `device % stride` of every device of this table (set by the first one).
    private var residue: Int32 = 0
    /// Regions whose registration failed, per device that had any.
    private var failedRegions: [Int32: [Int32]] = [:]
    private let seed: UInt64
    /// Whether any rule beyond exact containment applies (decided by the settings, or by a region asking for
    /// dwell); once true it stays true.
    private var isRich: Bool

    // Per device row.
    private var slotStart: [Int32] = []
    private var slotCount: [Int32] = []
    private var lastTime: [Int64] = []
    private var lastLatitude: [Double] = []
    private var lastLongitude: [Double] = []
    private var schedules: [Int32: ForegroundSchedule] = [:]

    // Per slot.
    private var slots: [PackedRegion] = []
    private var regionID: [Int32] = []
    private var flags: [UInt8] = []
    /// Polygons, referred to by their slots.
    private var polygons: [PolygonGeometry] = []
    /// Rich path only (empty otherwise, to keep a million devices in memory): when the device first stood past the
    /// boundary towards the other state, and when a dwell falls due (`.min`: none).
    private var pendingSince: [Int64] = []
    private var dwellDue: [Int64] = []
    /// Loitering delays of the slots whose region sets its own.
    private var ownLoiteringDelay: [Int: Double] = [:]
    /// Hysteresis of the slots whose region sets its own (buffer, confirmation time).
    private var ownHysteresis: [Int: Hysteresis] = [:]

    private var timers = TimerQueue()

    /// Samples evaluated, and samples rejected because they were older than the device's previous one.
    public private(set) var evaluatedCount = 0
    public private(set) var outOfOrderCount = 0
    /// Devices that have sent at least one sample.
    public private(set) var deviceCount = 0
    /// Events not delivered because the app was in the background (whenInUse authorization).
    public private(set) var suppressedInBackground = 0

    private static let notifyOnEntry: UInt8 = 1
    private static let notifyOnExit: UInt8 = 2
    private static let inside: UInt8 = 4
    private static let notifyOnDwell: UInt8 = 8
    private static let none: Int64 = .min

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
        precondition(stride >= 1, "stride must be at least 1")
        self.settings = settings
        self.stride = Int32(stride)
        self.seed = seed
        self.regionsOf = regions
        self.restoredState = restored
        isRich = settings.hysteresis.isActive || settings.confidence != nil || settings.authorization.isActive
            || settings.dwellByDefault || settings.initialTriggers.contains(.dwell)
    }

    /// Slots in use over all devices (monitored regions).
    public var monitoredRegionCount: Int { slots.count }

    /// Reserves room for `devices` devices of this table and `regions` registrations in all, so that a large run
    /// allocates its tables once instead of doubling them (a doubling of the slot table is the peak of memory).
    public mutating func reserveCapacity(devices: Int, regions: Int) {
        slotStart.reserveCapacity(devices)
        slotCount.reserveCapacity(devices)
        lastTime.reserveCapacity(devices)
        lastLatitude.reserveCapacity(devices)
        lastLongitude.reserveCapacity(devices)
        slots.reserveCapacity(regions)
        regionID.reserveCapacity(regions)
        flags.reserveCapacity(regions)
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
        let row = Int(device / stride)
        if row >= lastTime.count { grow(toInclude: row) }
        var previous = lastTime[row]
        if previous == Self.none, let state = restoredState?(device) {
            restore(state, row: row)
            previous = state.time
        }
        if previous == Self.none {
            lastTime[row] = time.microseconds
            lastLatitude[row] = latitude
            lastLongitude[row] = longitude
            register(device: device, row: row, latitude: latitude, longitude: longitude, time: time, into: &events)
            evaluatedCount += 1
            return true
        }
        guard time.microseconds >= previous else {
            outOfOrderCount += 1
            return false
        }
        evaluatedCount += 1
        let start = Int(slotStart[row])
        let end = start + Int(slotCount[row])
        guard isRich else {
            // The position too: a snapshot saves it, and regions added before a restart register there.
            lastTime[row] = time.microseconds
            lastLatitude[row] = latitude
            lastLongitude[row] = longitude
            evaluateExact(device: device, slots: start..<end, latitude: latitude, longitude: longitude, time: time, into: &events)
            return true
        }
        fireDueTimers(device: device, row: row, slots: start..<end, upTo: time.microseconds, into: &events)
        lastTime[row] = time.microseconds
        lastLatitude[row] = latitude
        lastLongitude[row] = longitude
        for slot in start..<end {
            evaluateRich(
                slot: slot, device: device, row: row, latitude: latitude, longitude: longitude, time: time,
                accuracy: accuracy, into: &events)
        }
        return true
    }

    /// The inner loop of the exact rules: one containment test per slot, a flag flip and an event on a change.
    private mutating func evaluateExact(
        device: Int32, slots range: Range<Int>, latitude: Double, longitude: Double, time: Timestamp,
        into events: inout [GeofenceEvent]
    ) {
        let polygons = polygons
        slots.withUnsafeBufferPointer { slots in
            flags.withUnsafeMutableBufferPointer { flags in
                for slot in range {
                    let region = slots[slot]
                    let isInside = region.isPolygon
                        ? polygons[region.polygonIndex].contains(latitude: latitude, longitude: longitude)
                        : region.circleContains(latitude: latitude, longitude: longitude)
                    let slotFlags = flags[slot]
                    guard isInside != (slotFlags & Self.inside != 0) else { continue }
                    flags[slot] = slotFlags ^ Self.inside
                    if isInside ? slotFlags & Self.notifyOnEntry != 0 : slotFlags & Self.notifyOnExit != 0 {
                        events.append(
                            GeofenceEvent(
                                device: device, region: regionID[slot], kind: isInside ? .enter : .exit, time: time,
                                latitude: latitude, longitude: longitude))
                    }
                }
            }
        }
    }

    /// Moves the clock to `time` for every device: fires the confirmation and dwell timers due by then, in time
    /// order, at their due times and the devices' last known positions.
    ///
    /// The caller promises that no later sample of any device of this table is older than `time` (a source's
    /// watermark), so a timer never fires ahead of a sample that would have cancelled it.
    public mutating func advance(to time: Timestamp, into events: inout [GeofenceEvent]) {
        while let timer = timers.popDue(upTo: time.microseconds) {
            fire(timer, into: &events)
        }
    }

    /// The state of every device seen so far, to continue in a later run (see ``DeviceState``).
    public func exportState() -> [DeviceState] {
        var states: [DeviceState] = []
        for row in lastTime.indices where lastTime[row] != Self.none {
            let start = Int(slotStart[row])
            let device = Int32(row) * stride + residue
            let regions = (start..<start + Int(slotCount[row])).map { slot in
                DeviceState.Region(
                    region: regionID[slot], inside: flags[slot] & Self.inside != 0,
                    pendingSince: pendingSince.isEmpty || pendingSince[slot] == Self.none ? nil : pendingSince[slot],
                    dwellDue: dwellDue.isEmpty || dwellDue[slot] == Self.none ? nil : dwellDue[slot])
            }
            states.append(
                DeviceState(
                    device: device, time: lastTime[row], latitude: lastLatitude[row], longitude: lastLongitude[row],
                    regions: regions, failed: failedRegions[device] ?? []))
        }
        return states
    }

    /// Whether `device` is inside the region in its `slot`-th slot, or `nil` when it has no such slot.
    public func isInside(device: Int32, slot: Int) -> Bool? {
        let row = Int(device / stride)
        guard row < lastTime.count, lastTime[row] != Self.none, slot >= 0, slot < Int(slotCount[row]) else {
            return nil
        }
        return flags[Int(slotStart[row]) + slot] & Self.inside != 0
    }

    // MARK: Registration

    private mutating func grow(toInclude row: Int) {
        let missing = row + 1 - lastTime.count
        slotStart.append(contentsOf: repeatElement(0, count: missing))
        slotCount.append(contentsOf: repeatElement(0, count: missing))
        lastTime.append(contentsOf: repeatElement(Self.none, count: missing))
        lastLatitude.append(contentsOf: repeatElement(0, count: missing))
        lastLongitude.append(contentsOf: repeatElement(0, count: missing))
    }

    private mutating func register(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp,
        into events: inout [GeofenceEvent]
    ) {
        register(device: device, row: row, latitude: latitude, longitude: longitude, time: time, restoring: nil, into: &events)
    }

    /// Continues a device from an earlier run: its regions take their saved state (no initial events), and the
    /// next sample is evaluated against it. Regions it did not have before register as usual with that sample.
    private mutating func restore(_ state: DeviceState, row: Int) {
        var none: [GeofenceEvent] = []
        lastTime[row] = state.time
        lastLatitude[row] = state.latitude
        lastLongitude[row] = state.longitude
        register(
            device: state.device, row: row, latitude: state.latitude, longitude: state.longitude,
            time: Timestamp(microseconds: state.time), restoring: state, into: &none)
    }

    private mutating func register(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp, restoring state: DeviceState?,
        into events: inout [GeofenceEvent]
    ) {
        deviceCount += 1
        residue = device % stride
        let requested = regionsOf(device)
        let saved = state.map { Dictionary($0.regions.map { ($0.region, $0) }, uniquingKeysWith: { first, _ in first }) }
        let alreadyFailed = Set(state?.failed ?? [])
        slotStart[row] = Int32(slots.count)
        slotCount[row] = 0
        let status = settings.authorization.status(ofDevice: device, seed: seed)
        if status == .whenInUse {
            schedules[device] = ForegroundSchedule(
                mix: settings.authorization, seed: seed, device: device, start: time.microseconds)
        }
        var failed: [Int32] = []
        defer { if !failed.isEmpty { failedRegions[device] = failed } }
        func fail(_ region: MonitoredRegion, _ reason: FailureReason, _ code: Int32) {
            failed.append(region.id)
            // A failure reported before a restart is not reported again.
            guard !alreadyFailed.contains(region.id) else { return }
            events.append(
                GeofenceEvent(
                    device: device, region: region.id, kind: .failed, time: time, latitude: latitude,
                    longitude: longitude, failure: reason, code: code))
        }
        if status == .denied {
            for region in requested { fail(region, .denied, settings.deniedCode) }
            return
        }
        var refused: [(MonitoredRegion, FailureReason)] = []
        for region in requested {
            if let maximum = settings.maximumRadius, region.geometry.characteristicRadius > maximum {
                refused.append((region, .radiusTooLarge))
                continue
            }
            guard Int(slotCount[row]) < settings.slotLimit else {
                refused.append((region, .tooManyRegions))
                continue
            }
            accept(
                region, device: device, row: row, latitude: latitude, longitude: longitude, time: time,
                restoring: saved?[region.id], into: &events)
        }
        // Registrations that fail do so after the ones before them; the regions registered keep working.
        for (region, reason) in refused { fail(region, reason, settings.tooManyRegionsCode) }
    }

    private mutating func accept(
        _ region: MonitoredRegion, device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp,
        restoring saved: DeviceState.Region?, into events: inout [GeofenceEvent]
    ) {
        let slot = slots.count
        slotCount[row] += 1
        let isInside = saved?.inside ?? region.geometry.contains(latitude: latitude, longitude: longitude)
        let dwells = region.notifyOnDwell ?? settings.dwellByDefault
        switch region.geometry {
        case .circle(let circle):
            slots.append(PackedRegion(circle))
        case .polygon(let polygon):
            slots.append(PackedRegion(polygonIndex: polygons.count))
            polygons.append(polygon)
        }
        regionID.append(region.id)
        flags.append(
            (region.notifyOnEntry ? Self.notifyOnEntry : 0) | (region.notifyOnExit ? Self.notifyOnExit : 0)
                | (dwells ? Self.notifyOnDwell : 0) | (isInside ? Self.inside : 0))
        if let delay = region.loiteringDelay { ownLoiteringDelay[slot] = delay }
        if region.bufferDistance != nil || region.confirmationTime != nil {
            var own = settings.hysteresis
            own.bufferDistance = region.bufferDistance ?? own.bufferDistance
            own.confirmationTime = region.confirmationTime ?? own.confirmationTime
            ownHysteresis[slot] = own
            isRich = true
        }
        if dwells && !isRich { isRich = true }
        if saved?.pendingSince != nil || saved?.dwellDue != nil { isRich = true }
        if isRich {
            // The rich path's per-slot timers exist from the first rich slot on, for every slot.
            pendingSince.append(contentsOf: repeatElement(Self.none, count: slots.count - pendingSince.count))
            dwellDue.append(contentsOf: repeatElement(Self.none, count: slots.count - dwellDue.count))
        }

        if let saved {
            // The region was monitored before the restart: its timers continue, and nothing is reported again.
            if let since = saved.pendingSince {
                pendingSince[slot] = since
                timers.push(
                    TimerQueue.Timer(
                        due: since + confirmation(slot), device: device,
                        slot: Int32(slot), kind: .confirmation))
            }
            if let due = saved.dwellDue {
                dwellDue[slot] = due
                timers.push(TimerQueue.Timer(due: due, device: device, slot: Int32(slot), kind: .dwell))
            }
            return
        }
        let triggers = settings.initialTriggers
        if triggers.contains(.state) {
            emit(.state, device: device, slot: slot, time: time, latitude: latitude, longitude: longitude, inside: isInside, into: &events)
        }
        if isInside && triggers.contains(.enter) && region.notifyOnEntry {
            emit(.enter, device: device, slot: slot, time: time, latitude: latitude, longitude: longitude, into: &events)
        }
        if isInside && triggers.contains(.dwell) && dwells {
            startDwell(device: device, slot: slot, from: time.microseconds)
        }
    }

    // MARK: The rich path

    private enum Side { case inside, outside, undecided }

    /// Which side the sample puts the device on, after the profile's confidence or hysteresis rule.
    private func side(slot: Int, latitude: Double, longitude: Double, accuracy: Double?) -> Side {
        let packed = slots[slot]
        let polygon: RegionGeometry? = packed.isPolygon ? .polygon(polygons[packed.polygonIndex]) : nil
        let size = polygon?.characteristicRadius ?? packed.radius

        if let confidence = settings.confidence, let accuracy, accuracy.isFinite, accuracy > 0 {
            let small = size < confidence.smallRadius
            func decision(_ fraction: Double) -> Side {
                if fraction >= (small ? confidence.smallEnterFraction : confidence.enterFraction) { return .inside }
                if fraction <= (small ? confidence.smallExitFraction : confidence.exitFraction) { return .outside }
                return .undecided
            }
            if case .polygon(let polygon)? = polygon {
                return polygon.decideOnSignedBoundaryDistance(latitude: latitude, longitude: longitude) { signed in
                    decision(RegionGeometry.halfPlaneFraction(signedDistance: signed, accuracy: accuracy))
                }
            }
            // The share falls as the distance to the centre grows: the plane decides unless its error could
            // change the outcome (GuardedDistance).
            return packed.decideOnCentreDistance(latitude: latitude, longitude: longitude) { distance in
                decision(RegionGeometry.lensFraction(distance: distance, accuracy: accuracy, radius: packed.radius))
            }
        }
        let hysteresis = hysteresis(slot)
        guard hysteresis.bufferDistance > 0 else {
            let isInside = polygon?.contains(latitude: latitude, longitude: longitude)
                ?? packed.circleContains(latitude: latitude, longitude: longitude)
            return isInside ? .inside : .outside
        }
        let entry = hysteresis.entryBuffer(radius: size)
        if case .polygon(let polygon)? = polygon {
            let distance = polygon.signedBoundaryDistance(
                latitude: latitude, longitude: longitude, comparedWith: entry, -hysteresis.bufferDistance)
            if distance >= entry { return .inside }
            if distance <= -hysteresis.bufferDistance { return .outside }
            return .undecided
        }
        // Inside once within radius − entry buffer of the centre, outside from radius + buffer: the centre distance
        // is exact wherever the plane could put it on the wrong side of either (GuardedDistance).
        let inner = packed.radius - entry, outer = packed.radius + hysteresis.bufferDistance
        let distance = packed.centreDistance(latitude: latitude, longitude: longitude, comparedWith: inner, outer)
        if distance <= inner { return .inside }
        if distance >= outer { return .outside }
        return .undecided
    }

    private mutating func evaluateRich(
        slot: Int, device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp, accuracy: Double?,
        into events: inout [GeofenceEvent]
    ) {
        let isInside = flags[slot] & Self.inside != 0
        switch side(slot: slot, latitude: latitude, longitude: longitude, accuracy: accuracy) {
        case .undecided:
            // Back within the buffer: a transition waiting for confirmation starts over.
            pendingSince[slot] = Self.none
        case .inside where isInside, .outside where !isInside:
            pendingSince[slot] = Self.none
        case .inside, .outside:
            let confirmation = hysteresis(slot).confirmationTime
            if confirmation <= 0 {
                transition(slot: slot, device: device, at: time.microseconds, latitude: latitude, longitude: longitude, into: &events)
            } else if pendingSince[slot] == Self.none {
                pendingSince[slot] = time.microseconds
                timers.push(
                    TimerQueue.Timer(
                        due: time.microseconds + self.confirmation(slot), device: device, slot: Int32(slot),
                        kind: .confirmation))
            }
        }
    }

    /// Fires the timers of one device that fell due up to `time`, in due order (before its sample at `time`).
    ///
    /// One at a time, looking again after each: a confirmed entry starts a dwell timer that may itself fall due
    /// before the sample, exactly as ``advance(to:into:)`` would fire it — so the events do not depend on whether
    /// a watermark or the device's next sample moved the clock.
    private mutating func fireDueTimers(
        device: Int32, row: Int, slots: Range<Int>, upTo time: Int64, into events: inout [GeofenceEvent]
    ) {
        while true {
            var next: TimerQueue.Timer?
            func consider(_ timer: TimerQueue.Timer) {
                guard let current = next else { return next = timer }
                if (timer.due, timer.slot, timer.kind.rawValue) < (current.due, current.slot, current.kind.rawValue) {
                    next = timer
                }
            }
            for slot in slots {
                let confirmation = self.confirmation(slot)
                if pendingSince[slot] != Self.none && pendingSince[slot] + confirmation <= time {
                    consider(.init(due: pendingSince[slot] + confirmation, device: device, slot: Int32(slot), kind: .confirmation))
                }
                if dwellDue[slot] != Self.none && dwellDue[slot] <= time {
                    consider(.init(due: dwellDue[slot], device: device, slot: Int32(slot), kind: .dwell))
                }
            }
            guard let timer = next else { return }
            fire(timer, into: &events)
        }
    }

    /// Fires a timer if it still stands (the queue keeps stale entries; the slot's state is the truth).
    private mutating func fire(_ timer: TimerQueue.Timer, into events: inout [GeofenceEvent]) {
        let slot = Int(timer.slot)
        let row = Int(timer.device / stride)
        switch timer.kind {
        case .confirmation:
            guard pendingSince[slot] != Self.none, pendingSince[slot] + confirmation(slot) == timer.due else { return }
            transition(
                slot: slot, device: timer.device, at: timer.due, latitude: lastLatitude[row],
                longitude: lastLongitude[row], into: &events)
        case .dwell:
            guard dwellDue[slot] == timer.due else { return }
            dwellDue[slot] = Self.none
            guard flags[slot] & Self.inside != 0 else { return }
            emit(
                .dwell, device: timer.device, slot: slot, time: Timestamp(microseconds: timer.due),
                latitude: lastLatitude[row], longitude: lastLongitude[row], into: &events)
        }
    }

    private mutating func transition(
        slot: Int, device: Int32, at time: Int64, latitude: Double, longitude: Double, into events: inout [GeofenceEvent]
    ) {
        pendingSince[slot] = Self.none
        flags[slot] ^= Self.inside
        let slotFlags = flags[slot]
        let entered = slotFlags & Self.inside != 0
        let stamp = Timestamp(microseconds: time)
        if entered {
            if slotFlags & Self.notifyOnEntry != 0 {
                emit(.enter, device: device, slot: slot, time: stamp, latitude: latitude, longitude: longitude, into: &events)
            }
            if slotFlags & Self.notifyOnDwell != 0 { startDwell(device: device, slot: slot, from: time) }
        } else {
            dwellDue[slot] = Self.none  // never a dwell after an exit
            if slotFlags & Self.notifyOnExit != 0 {
                emit(.exit, device: device, slot: slot, time: stamp, latitude: latitude, longitude: longitude, into: &events)
            }
        }
    }

    /// The slot's hysteresis: its region's own, else the profile's.
    private func hysteresis(_ slot: Int) -> Hysteresis { ownHysteresis[slot] ?? settings.hysteresis }

    /// The slot's confirmation time in microseconds.
    private func confirmation(_ slot: Int) -> Int64 { Int64(hysteresis(slot).confirmationTime * 1e6) }

    private mutating func startDwell(device: Int32, slot: Int, from time: Int64) {
        let due = time + Int64((ownLoiteringDelay[slot] ?? settings.loiteringDelay) * 1e6)
        dwellDue[slot] = due
        timers.push(TimerQueue.Timer(due: due, device: device, slot: Int32(slot), kind: .dwell))
    }

    /// Appends an event unless the device's app is in the background (whenInUse): then it is only counted.
    private mutating func emit(
        _ kind: EventKind, device: Int32, slot: Int, time: Timestamp, latitude: Double, longitude: Double,
        inside: Bool = false, into events: inout [GeofenceEvent]
    ) {
        if var schedule = schedules[device] {
            let inForeground = schedule.isForeground(at: time.microseconds)
            schedules[device] = schedule
            guard inForeground else {
                suppressedInBackground += 1
                return
            }
        }
        events.append(
            GeofenceEvent(
                device: device, region: regionID[slot], kind: kind, time: time, latitude: latitude,
                longitude: longitude, inside: inside))
    }
}
