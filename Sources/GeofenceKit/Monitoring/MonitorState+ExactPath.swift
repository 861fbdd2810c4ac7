/// The exact path: a containment test per slot (boundary inside), a flag flip and an event on a change — tested
/// only where the device may have crossed a boundary since the slot's last test (``BoundaryClearance``).
extension MonitorState {
    /// Evaluates one sample of a registered device under the exact rules.
    ///
    /// A sample inside the device's disc costs one distance bound. Outside it, the device's slots are tested
    /// (``testSlots(of:movedSquared:device:latitude:longitude:time:tables:into:)``).
    mutating func evaluateExact(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp,
        into events: inout [GeofenceEvent]
    ) {
        // Read and written once. The position too: a snapshot saves it, and regions added before a restart register
        // there.
        var deviceRow = rows[row]
        deviceRow.time = time.microseconds
        deviceRow.latitude = latitude
        deviceRow.longitude = longitude
        defer { rows[row] = deviceRow }
        // Uncapped, as the batch call's loop measures it: the slot tests cap it as they convert it.
        let pathSquared = deviceRow.clearance.pathSquared(latitude: latitude, longitude: longitude)
        // Still inside the disc no boundary crosses: every containment is as it was (and the distance needs no cap: a
        // disc is never wider than the bound's reach). NaN (no disc yet, or a NaN position) tests.
        if pathSquared < Double(deviceRow.clearance.radiusSquared) { return }
        let firstEvent = events.count
        Self.withSlotTables(&slots, polygons) { tables in
            Self.testSlots(
                of: &deviceRow, movedSquared: pathSquared, device: device, latitude: latitude, longitude: longitude,
                time: time, tables: tables, into: &events)
            Self.nameRegions(of: &events, from: firstEvent, regionID: tables.regionID)
        }
    }

    /// What ``testSlots(of:movedSquared:device:latitude:longitude:time:tables:into:)`` reads and writes besides the
    /// device's row, by pointer: no retain or release of an array, no uniqueness check, per call.
    struct SlotTables {
        /// The slots' records (``SlotTable/packed``).
        let packed: UnsafeMutableBufferPointer<PackedRegion>
        let regionID: UnsafeBufferPointer<Int32>
        let polygons: UnsafeBufferPointer<PolygonGeometry>
        /// Every slot's exact radius, where the table keeps them (``SlotTable/exactRadius``).
        let exactRadius: UnsafeBufferPointer<Double>?
        /// Whether every slot is a circle of its record's radius: no polygon, no exact radius kept (``SlotKinds``).
        let arePlainCircles: Bool
    }

    /// Calls `body` with the slot tables held by pointer. Static, on the two stored properties it needs, so that a
    /// caller may hold the rows by pointer at the same time.
    static func withSlotTables<Result>(
        _ slots: inout SlotTable, _ polygons: [PolygonGeometry], _ body: (SlotTables) -> Result
    ) -> Result {
        let hasExactRadii = slots.hasExactRadii
        return slots.packed.withUnsafeMutableBufferPointer { packed in
            slots.regionID.withUnsafeBufferPointer { regionID in
                polygons.withUnsafeBufferPointer { polygons in
                    slots.exactRadius.withUnsafeBufferPointer { exactRadius in
                        // No polygon in the monitor's table, no polygon slot: each refers to an entry of it.
                        body(
                            SlotTables(
                                packed: packed, regionID: regionID, polygons: polygons,
                                exactRadius: hasExactRadii ? exactRadius : nil,
                                arePlainCircles: !hasExactRadii && polygons.isEmpty))
                    }
                }
            }
        }
    }

    /// The slots of a device whose sample left its disc (`movedSquared`, the distance moved from its centre by
    /// ``BoundaryClearance/pathSquared(latitude:longitude:)``, capped or not, is not below the disc's radius squared):
    /// every slot's clearance is measured again from the sample, less the
    /// distance moved (a bound from above); only the slots whose clearance that used up are tested, and the disc
    /// moves to the sample, as wide as the smallest clearance of the slots tested, and no wider than the
    /// clearance every untested slot still has (``retestFactor`` times the distance moved).
    ///
    /// The events' `region` is the slot's index, not yet the region's id: the caller names them, all its events
    /// together (``nameRegions(of:from:regionID:)``).
    ///
    /// Static, with the table's arrays as arguments, so that a caller holding the records and the rows by pointer
    /// (``exactRun(devices:latitudes:longitudes:times:from:into:eventLimit:refresh:)``) can call it. Out of line:
    /// the samples that stay in their disc then run through a small loop.
    @inline(never)
    static func testSlots(
        of deviceRow: inout DeviceRow, movedSquared: Double, device: Int32, latitude: Double, longitude: Double,
        time: Timestamp, tables: SlotTables, into events: inout [GeofenceEvent]
    ) {
        // Beyond the disc's reach (or with no disc yet) every slot is tested.
        let moved = BoundaryClearance.metres(fromPathSquared: movedSquared)
        // The same in clearance units, rounded up (integers from here: no conversion per slot).
        let movedUnits =
            moved <= BoundaryClearance.maximumRadius ? WholeUnits.atLeast(moved / PackedRegion.clearanceUnit) : 1 << 30
        var smallest = BoundaryClearance.maximumRadius
        // The plane's terms, once for every slot tested.
        let sample = SamplePlane(latitude: latitude, longitude: longitude)
        // A table with no slot at all has no storage.
        if let base = tables.packed.baseAddress {
            let first = base + Int(deviceRow.slotStart)
            let end = first + Int(deviceRow.slotCount)
            // Compiled apart for a table of plain circles (``SlotKinds``), the common case: a tested slot then asks
            // neither whether it is a polygon nor where its radius is kept.
            smallest =
                tables.arePlainCircles
                ? walkSlots(
                    PlainCircleSlots.self, from: first, to: end, base: base, movedUnits: movedUnits, sample: sample,
                    device: device, time: time, tables: tables, into: &events)
                : walkSlots(
                    AnySlots.self, from: first, to: end, base: base, movedUnits: movedUnits, sample: sample,
                    device: device, time: time, tables: tables, into: &events)
        }
        // An untested slot has more than `retestFactor` times the distance moved left: one bound for all of them
        // rather than a minimum taken at each (two instructions at every slot walked). It binds only a disc that
        // would grow to over that many times the last one, so as many samples leave their discs.
        smallest = min(smallest, Double(retestFactor &* movedUnits) * PackedRegion.clearanceUnit)
        deviceRow.clearance = BoundaryClearance(sample, radius: smallest)
    }

    /// The walk of ``testSlots(of:movedSquared:device:latitude:longitude:time:tables:into:)`` over the records
    /// `first ..< end` of the table whose first record is `base`, for a table whose slots are of `kinds`: returns the
    /// smallest clearance of the slots it tested (``BoundaryClearance/maximumRadius`` if none).
    @inline(__always)
    private static func walkSlots<Kinds: SlotKinds>(
        _ kinds: Kinds.Type, from first: UnsafeMutablePointer<PackedRegion>, to end: UnsafeMutablePointer<PackedRegion>,
        base: UnsafeMutablePointer<PackedRegion>, movedUnits: Int, sample: SamplePlane, device: Int32,
        time: Timestamp, tables: SlotTables, into events: inout [GeofenceEvent]
    ) -> Double {
        var smallest = BoundaryClearance.maximumRadius
        // The block walked by one pointer (most slots are only walked: one induction variable, not three).
        var record = first
        while record != end {
            defer { record += 1 }
            let leftUnits = Int(record.pointee.clearance) &- movedUnits
            // Tested again before the clearance runs out, while the test still buys a long skip: an untested
            // slot's clearance only shrinks (by each distance moved), a tested one's is the true distance.
            if leftUnits > retestFactor * movedUnits {
                record.pointee.clearance = UInt16(truncatingIfNeeded: leftUnits)
                continue
            }
            let region = record.pointee
            var left = BoundaryClearance.maximumRadius
            let isInside: Bool
            if !Kinds.arePlainCircles && region.isPolygon {
                isInside = tables.polygons[region.polygonIndex].contains(
                    latitude: sample.latitude, longitude: sample.longitude)
                left = 0
            } else {
                let radius =
                    Kinds.arePlainCircles
                    ? Double(region.radius) : tables.exactRadius?[record - base] ?? Double(region.radius)
                isInside = region.circleContains(sample, radius: radius, clearance: &left)
            }
            record.pointee.setClearance(metres: left)
            smallest = min(smallest, left)
            let slotFlags = region.flags
            guard isInside != (slotFlags & inside != 0) else { continue }
            record.pointee.flags = slotFlags ^ inside
            if isInside ? slotFlags & notifyOnEntry != 0 : slotFlags & notifyOnExit != 0 {
                appendEvent(
                    to: &events, device: device, slot: record - base, entering: isInside, time: time,
                    latitude: sample.latitude, longitude: sample.longitude)
            }
        }
        return smallest
    }

    /// Appends a crossing's event, its region still the slot's index. Out of line: one tested slot in fifteen
    /// changes state, and inlined, the append's registers made the loop keep the sample's position on the stack.
    @inline(never)
    static func appendEvent(
        to events: inout [GeofenceEvent], device: Int32, slot: Int, entering: Bool, time: Timestamp,
        latitude: Double, longitude: Double
    ) {
        events.append(
            GeofenceEvent(
                device: device, region: Int32(truncatingIfNeeded: slot), kind: entering ? .enter : .exit, time: time,
                latitude: latitude, longitude: longitude))
    }

    /// Replaces the slot indices that ``testSlots(of:movedSquared:device:latitude:longitude:time:tables:into:)``
    /// leaves as the regions of its events, from `first` on, by the regions' ids.
    ///
    /// A run's events are named once it is over rather than one at a time: the ids are apart from the records
    /// the loop reads, in an array touched at one update in twenty, so each was a cache miss that the loop waited
    /// for, and here the misses overlap.
    static func nameRegions(of events: inout [GeofenceEvent], from first: Int, regionID: UnsafeBufferPointer<Int32>) {
        guard first < events.count else { return }
        for k in first..<events.count { events[k].region = regionID[Int(events[k].region)] }
    }

    /// A slot whose clearance left is within this many times the distance just moved is tested again.
    static var retestFactor: Int { 2 }
}
