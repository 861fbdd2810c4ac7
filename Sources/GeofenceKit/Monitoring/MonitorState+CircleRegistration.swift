/// The registration fast path of a plain circle (``MonitoredCircle``): the slot is written straight from the centre,
/// radius and id, its side and clearance decided on the plane of the device's position, which the caller computes
/// once for all the circles it registers there. Device registration and a catalog choice's swapped-in circles both
/// take it.
extension MonitorState {
    /// Registers a plain circle in `slot` — appended when it is `slots.count`, else a clear slot of the device's
    /// block (the caller keeps the block's count) — with the rules ``accept(_:device:row:latitude:longitude:time:restoring:into:)``
    /// applies to the same circle as a ``MonitoredRegion``: its side from the sample, then the profile's initial
    /// triggers, and a dwell where the profile dwells by default.
    /// - Returns: a lower bound of the distance from the sample to the circle's boundary in metres (capped at
    ///   ``BoundaryClearance/maximumRadius``), which is also the slot's clearance.
    ///
    /// Inlined: registering a million devices calls it 20 million times, and a call with a ``SamplePlane`` among its
    /// arguments cost a fifth of it.
    @discardableResult @inline(__always)
    mutating func acceptCircle(
        _ circle: MonitoredCircle, at slot: Int, device: Int32, sample: SamplePlane, time: Timestamp,
        into events: inout [GeofenceEvent]
    ) -> Double {
        var record = PackedRegion(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius)
        var clearance = BoundaryClearance.maximumRadius
        let isInside = record.circleContains(sample, radius: circle.radius, clearance: &clearance)
        record.setClearance(metres: clearance)
        let dwells = settings.dwellByDefault
        if dwells { isRich = true }
        // The rich path's per-slot timers exist from the first rich slot on, for every slot.
        if isRich { slots.keepTimers() }
        let flags = Self.notifyOnEntry | Self.notifyOnExit | (dwells ? Self.notifyOnDwell : 0)
            | (isInside ? Self.inside | Self.appInside : 0)
        slots.store(SlotTable.Slot(geometry: record, radius: circle.radius, region: circle.id, flags: flags), at: slot)
        // A plain circle has no saved or assumed state: the initial triggers (if the profile has any) report its side.
        if !settings.initialTriggers.isEmpty {
            reportInitialSide(
                slot: slot, device: device, inside: isInside, notifyOnEntry: true, notifyOnExit: true, dwells: dwells,
                time: time, latitude: sample.latitude, longitude: sample.longitude, into: &events)
        }
        return clearance
    }
}

extension MonitorState {
    /// Registers a plain circle of a restored device in the next slot with its saved side and no timer running: the
    /// slot ``accept(_:device:row:latitude:longitude:time:restoring:into:)`` makes of the circle as a
    /// ``MonitoredRegion`` restoring such a state (no event, the saved side as the app's too), without compiling its
    /// geometry or testing a side the saved one replaces. The caller keeps to states with no timer, where the
    /// profile does not dwell by default.
    mutating func restoreCircle(_ circle: MonitoredCircle, inside: Bool, row: Int) {
        let slot = slots.count
        rows[row].slotCount += 1
        // The rich path's per-slot timers exist from the first rich slot on, for every slot.
        if isRich { slots.keepTimers() }
        slots.store(
            SlotTable.Slot(
                geometry: PackedRegion(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius),
                radius: circle.radius, region: circle.id,
                flags: Self.notifyOnEntry | Self.notifyOnExit | (inside ? Self.inside | Self.appInside : 0)),
            at: slot)
    }
}

/// A device's plain circles registered as one block, when nothing can make one of them differ from the others: no
/// refusal, no saved state, no event at registration and the exact path. The same slots, side and clearance as
/// ``acceptCircle(_:at:device:sample:time:into:)`` gives each in turn, with each of the slot table's arrays grown
/// once per device instead of once per circle (registering a million devices appends 20 million slots).
extension MonitorState {
    /// Whether ``acceptCircles(_:row:sample:)`` registers these circles for a device registering with no saved state
    /// and not denied: every one fits under the slot limit and the largest radius, and registering one reports
    /// nothing and starts no timer (no initial triggers, exact path).
    ///
    /// Inlined: called apart from a registration, the state was copied for the call (about 130 instructions a device).
    @inline(__always)
    func canAcceptAtOnce(_ circles: [MonitoredCircle]) -> Bool {
        guard !isRich, settings.initialTriggers.isEmpty, circles.count <= settings.slotLimit else { return false }
        guard let maximumRadius = settings.maximumRadius else { return true }
        return circles.allSatisfy { $0.radius <= maximumRadius }
    }

    /// Registers `circles` in the device's block of slots, which must be empty and at the table's end (as its
    /// registration starts it); returns the smallest of their clearances (``BoundaryClearance/maximumRadius`` for
    /// none).
    mutating func acceptCircles(_ circles: UnsafeBufferPointer<MonitoredCircle>, row: Int, sample: SamplePlane) -> Double {
        var smallest = BoundaryClearance.maximumRadius
        // Whether every radius is its record's `Float`, found as the records are made (a pass of its own over the
        // circles cost about 100 instructions a device).
        var radiiFitFloats = true
        // Records and ids are made on the stack, then copied to the table's arrays.
        withUnsafeTemporaryAllocation(of: PackedRegion.self, capacity: circles.count) { records in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: circles.count) { regions in
                for (index, circle) in circles.enumerated() {
                    var record = PackedRegion(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius)
                    var clearance = BoundaryClearance.maximumRadius
                    let isInside = record.circleContains(sample, radius: circle.radius, clearance: &clearance)
                    record.setClearance(metres: clearance)
                    record.flags = Self.notifyOnEntry | Self.notifyOnExit | (isInside ? Self.inside | Self.appInside : 0)
                    records.initializeElement(at: index, to: record)
                    regions.initializeElement(at: index, to: circle.id)
                    smallest = min(smallest, clearance)
                    if Double(record.radius) != circle.radius { radiiFitFloats = false }
                }
                slots.appendCircles(
                    UnsafeBufferPointer(records), regions: UnsafeBufferPointer(regions), of: circles,
                    radiiFitFloats: radiiFitFloats)
            }
        }
        rows[row].slotCount = Int32(circles.count)
        return smallest
    }
}
