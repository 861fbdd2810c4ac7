/// Registration: a device's regions take slots on its first sample (or its restore), in the order its
/// ``MonitorState/RegionLookup`` (or ``MonitorState/CircleLookup``) gives them; the platform refuses those past the
/// slot limit, too large, or every one for a denied device, with `failed` events. Plain circles, from either
/// lookup, take the fast path (``acceptCircle(_:at:device:sample:time:into:)``); any other region `accept`.
extension MonitorState {
    /// Where a device's regions come from.
    enum RegionSource: Sendable {
        case regions(RegionLookup)
        case circles(PositionedCircleLookup)
    }

    /// Before the first registration: the room reserved for every device of the run (``reserveCapacity(devices:regions:)``)
    /// is about to be written through, so its pages are faulted in at once, on the shard's own thread
    /// (``PrefaultedMemory``). Tables not reserved ahead hold next to nothing yet.
    private mutating func prefaultReservedTables() {
        PrefaultedMemory.populate(capacityOf: &rows)
        slots.prefaultReservedRoom()
    }

    mutating func grow(toInclude row: Int) {
        // A shard's devices first arrive in order, one new row at a time: one append, not a sequence's.
        if row == rows.count { return rows.append(DeviceRow()) }
        rows.append(contentsOf: repeatElement(DeviceRow(), count: row + 1 - rows.count))
    }

    /// Registers the regions `regions` (the table's ``regionsOf``) gives `device`, at its first sample or its restore.
    mutating func register(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp, restoring state: DeviceState?,
        regions: RegionSource, into events: inout [GeofenceEvent]
    ) {
        if deviceCount == 0 { prefaultReservedTables() }
        deviceCount += 1
        residue = device % stride
        rows[row].slotStart = Int32(slots.count)
        rows[row].slotCount = 0
        rows[row].clearance = .none
        // The plane's terms at the device's position, once for all its circles.
        let sample = SamplePlane(latitude: latitude, longitude: longitude)
        let registered: (disc: Double?, denied: Bool)
        switch regions {
        case .regions(let lookup):
            registered = registerOneByOne(
                lookup(device), [], device: device, row: row, sample: sample, time: time, restoring: state,
                into: &events)
        case .circles(let lookup):
            var circles: [MonitoredCircle] = []
            swap(&circles, &circleBuffer)
            circles.removeAll(keepingCapacity: true)
            lookup(device, latitude, longitude, &circles)
            // Not denied either: a block registers only where no authorization mix is active (the rich path's).
            if state == nil && canAcceptAtOnce(circles) {
                let clearance = circles.withUnsafeBufferPointer { acceptCircles($0, row: row, sample: sample) }
                registered = (clearance, false)
            } else {
                registered = registerOneByOne(
                    [], circles, device: device, row: row, sample: sample, time: time, restoring: state, into: &events)
            }
            swap(&circles, &circleBuffer)
        }
        if registered.denied { return }
        if selection != nil {
            selectInitially(
                device: device, row: row, latitude: latitude, longitude: longitude, time: time, restoring: state,
                disc: isRich ? nil : registered.disc, into: &events)
        } else if let disc = registered.disc, !isRich {
            // Every slot was measured at this position: the device's next sample starts from the disc, as if its
            // first one had been evaluated by the exact path.
            rows[row].clearance = BoundaryClearance(sample, radius: disc)
        }
    }

    /// Registers a device's `regions`, then its plain `circles` (the caller gives one or the other), one at a time:
    /// any device but one whose circles register as one block (``acceptCircles(_:row:sample:)``), which takes none
    /// of this bookkeeping of saved regions, refusals and failures (a million generated devices register so).
    /// - Returns: the disc around the device's position that no boundary of its slots crosses (`nil` once a slot
    ///   registers without a clearance, or with a saved state), and whether the device is denied (nothing
    ///   registered, every region failed).
    private mutating func registerOneByOne(
        _ regions: [MonitoredRegion], _ circles: [MonitoredCircle], device: Int32, row: Int, sample: SamplePlane,
        time: Timestamp, restoring state: DeviceState?, into events: inout [GeofenceEvent]
    ) -> (disc: Double?, denied: Bool) {
        let latitude = sample.latitude, longitude = sample.longitude
        let saved = state.map { SavedRegions($0.regions) }
        let alreadyFailed = Set(state?.failed ?? [])
        let status = settings.authorization.status(ofDevice: device, seed: seed)
        if status == .whenInUse {
            schedules[device] = ForegroundSchedule(
                mix: settings.authorization, seed: seed, device: device, start: state?.time ?? time.microseconds)
        }
        var failed: [Int32] = []
        defer { if !failed.isEmpty { failedRegions[device] = failed } }
        func fail(_ region: Int32, _ reason: FailureReason, _ code: Int32) {
            failed.append(region)
            // A failure reported before a restart is not reported again.
            guard !alreadyFailed.contains(region) else { return }
            var event = GeofenceEvent(
                device: device, region: region, kind: .failed, time: time, latitude: latitude,
                longitude: longitude, failure: reason, code: code)
            if settings.eventModel == .conditions { event.condition = .unmonitored }
            events.append(event)
        }
        let denied = status == .denied
        var refused: [(region: Int32, reason: FailureReason)] = []
        let overLimit: FailureReason = settings.eventModel == .conditions ? .conditionLimitExceeded : .tooManyRegions
        // Read once: the test runs for every region.
        let maximumRadius = settings.maximumRadius ?? .infinity
        let slotLimit = settings.slotLimit
        func refusal(radius: Double) -> FailureReason? {
            if radius > maximumRadius { return .radiusTooLarge }
            return Int(rows[row].slotCount) < slotLimit ? nil : overLimit
        }
        // The disc around the device that no boundary crosses, as the circles register (`nil` once a slot registers
        // without a clearance).
        var disc: Double? = state == nil ? BoundaryClearance.maximumRadius : nil
        func register(_ circle: MonitoredCircle) {
            if denied { return fail(circle.id, .denied, settings.deniedCode) }
            if let reason = refusal(radius: circle.radius) { return refused.append((circle.id, reason)) }
            if let restored = saved?[circle.id] {
                if restored.pendingSince == nil && restored.dwellDue == nil && !settings.dwellByDefault {
                    return restoreCircle(circle, inside: restored.inside, row: row)
                }
                accept(
                    MonitoredRegion(circle), device: device, row: row, latitude: latitude, longitude: longitude,
                    time: time, restoring: restored, into: &events)
                return
            }
            let slot = slots.count
            rows[row].slotCount += 1
            let clearance = acceptCircle(circle, at: slot, device: device, sample: sample, time: time, into: &events)
            disc = disc.map { min($0, clearance) }
        }
        func register(_ region: MonitoredRegion) {
            if let circle = region.plainCircle { return register(circle) }
            if denied { return fail(region.id, .denied, settings.deniedCode) }
            if case .polygon = region.geometry, settings.polygons == .refuse {
                return refused.append((region.id, .unsupportedShape))
            }
            if let reason = refusal(radius: region.geometry.characteristicRadius) {
                return refused.append((region.id, reason))
            }
            accept(
                region, device: device, row: row, latitude: latitude, longitude: longitude, time: time,
                restoring: saved?[region.id], into: &events)
            disc = nil
        }
        for region in regions { register(region) }
        for circle in circles { register(circle) }
        if denied { return (disc, true) }
        // Registrations that fail do so after the ones before them; the regions registered keep working.
        for (region, reason) in refused {
            fail(region, reason, reason == .unsupportedShape ? settings.unsupportedShapeCode : settings.tooManyRegionsCode)
        }
        return (disc, false)
    }

    mutating func accept(
        _ region: MonitoredRegion, device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp,
        restoring saved: DeviceState.Region?, into events: inout [GeofenceEvent]
    ) {
        let slot = slots.count
        rows[row].slotCount += 1
        // The geometry the platform monitors: the region's, or a polygon's enclosing circle.
        var geometry = region.geometry
        var enclosedPolygon: Int?
        if case .polygon(let polygon) = region.geometry, settings.polygons == .enclosingCircle,
            let circle = polygon.enclosingCircle
        {
            geometry = .circle(circle)
            enclosedPolygon = polygons.count
            polygons.append(polygon)
            isRich = true
        }
        // A CLMonitor condition assuming a state starts in it; the rules then correct it from this sample.
        let assumed = settings.eventModel == .conditions && saved == nil ? region.assumedInside : nil
        // A saved side needs no test.
        let actuallyInside = saved == nil && geometry.contains(latitude: latitude, longitude: longitude)
        let isInside = saved?.inside ?? assumed ?? actuallyInside
        // The app's own view of an enclosed polygon: inside only when the circle is and the polygon contains it.
        let appInside = enclosedPolygon == nil
            ? isInside : saved?.appInside ?? (isInside && region.geometry.contains(latitude: latitude, longitude: longitude))
        let dwells = region.notifyOnDwell ?? settings.dwellByDefault
        let packed: PackedRegion
        var radius = 0.0
        switch geometry {
        case .circle(let circle):
            packed = PackedRegion(circle)
            radius = circle.radius
        case .polygon(let polygon):
            packed = PackedRegion(polygonIndex: polygons.count)
            polygons.append(polygon)
        }
        var ownHysteresis: Hysteresis?
        if region.bufferDistance != nil || region.confirmationTime != nil {
            var own = settings.hysteresis
            own.bufferDistance = region.bufferDistance ?? own.bufferDistance
            own.confirmationTime = region.confirmationTime ?? own.confirmationTime
            ownHysteresis = own
        }
        let responsiveness = region.notificationResponsiveness.flatMap { $0 > 0 ? $0 : nil }
        if responsiveness != nil || ownHysteresis != nil || dwells || saved?.pendingSince != nil
            || saved?.dwellDue != nil
        {
            isRich = true
        }
        // The rich path's per-slot timers exist from the first rich slot on, for every slot.
        if isRich { slots.keepTimers() }
        slots.append(
            SlotTable.Slot(
                geometry: packed, radius: radius, region: region.id,
                flags: (region.notifyOnEntry ? Self.notifyOnEntry : 0) | (region.notifyOnExit ? Self.notifyOnExit : 0)
                    | (dwells ? Self.notifyOnDwell : 0) | (isInside ? Self.inside : 0) | (appInside ? Self.appInside : 0),
                loiteringDelay: region.loiteringDelay, hysteresis: ownHysteresis, responsiveness: responsiveness,
                enclosedPolygon: enclosedPolygon))

        if let saved {
            // The region was monitored before the restart: its timers continue, and nothing is reported again.
            if let since = saved.pendingSince {
                slots.pendingSince[slot] = since
                timers.push(
                    TimerQueue.Timer(
                        due: since + confirmation(slot), device: device,
                        slot: Int32(slot), kind: .confirmation))
            }
            if let due = saved.dwellDue {
                slots.dwellDue[slot] = due
                timers.push(TimerQueue.Timer(due: due, device: device, slot: Int32(slot), kind: .dwell))
            }
            return
        }
        if assumed != nil {
            // No determination to report: the condition has its state; a sample that contradicts it is a change.
            if assumed != actuallyInside {
                evaluateRich(
                    slot: slot, device: device, row: row, sample: SamplePlane(latitude: latitude, longitude: longitude),
                    time: time, accuracy: nil, into: &events)
            }
            return
        }
        // Initial triggers report what the app sees (for an enclosed polygon, the polygon's side).
        reportInitialSide(
            slot: slot, device: device, inside: appInside, notifyOnEntry: region.notifyOnEntry,
            notifyOnExit: region.notifyOnExit, dwells: dwells, time: time, latitude: latitude, longitude: longitude,
            into: &events)
    }

    /// The profile's initial triggers for a newly registered slot with no saved or assumed state: its side as a
    /// state, an enter or an exit (where the region notifies of it), and a dwell started inside.
    mutating func reportInitialSide(
        slot: Int, device: Int32, inside: Bool, notifyOnEntry: Bool, notifyOnExit: Bool, dwells: Bool,
        time: Timestamp, latitude: Double, longitude: Double, into events: inout [GeofenceEvent]
    ) {
        let triggers = settings.initialTriggers
        if triggers.contains(.state) {
            emit(
                .state, device: device, slot: slot, time: time, latitude: latitude, longitude: longitude, inside: inside,
                isAnswer: true, into: &events)
        }
        if inside && triggers.contains(.enter) && notifyOnEntry {
            emit(.enter, device: device, slot: slot, time: time, latitude: latitude, longitude: longitude, isAnswer: true, into: &events)
        }
        if !inside && triggers.contains(.exit) && notifyOnExit {
            emit(.exit, device: device, slot: slot, time: time, latitude: latitude, longitude: longitude, isAnswer: true, into: &events)
        }
        if inside && triggers.contains(.dwell) && dwells {
            startDwell(device: device, slot: slot, from: time.microseconds)
        }
    }
}
