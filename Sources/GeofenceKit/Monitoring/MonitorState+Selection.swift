/// Selection: devices monitor the regions of a shared catalog nearest them, and choose again as they move.
///
/// A device's block of slots holds its own regions first (never swapped), then up to N catalog regions
/// (N = the slot limit minus its own), then vacant slots up to N. A choice keeps the regions still chosen in their
/// slots with their state and timers, removes the others (nothing is reported, as `stopMonitoring` reports
/// nothing), and registers the new ones as any registration does (a plain circle through
/// ``acceptCircle(_:at:device:sample:time:into:)``, any other region through
/// ``accept(_:device:row:latitude:longitude:time:restoring:into:)``): a new region the device is already inside
/// follows the profile's initial triggers.
extension MonitorState {
    /// Makes every device choose its catalog regions with `selection` (strategy ``SelectionStrategy/nearest``).
    /// Call before the first sample; the region lookup then gives only each device's own regions.
    public mutating func selectRegions(from catalog: SharedCatalog, settings selection: SelectionSettings) {
        self.selection = CatalogSelection(catalog: catalog, settings: selection)
    }

    /// Answers the first choices of devices whose first sample's position is known in advance (a random walk's
    /// starts), all together, in the catalog's curve order and on every core (``PreparedChoices``): each device's
    /// first sample then takes its answer instead of querying, and gets the same regions. Call after
    /// ``selectRegions(from:settings:)``, before the first sample; `starts` gives each device's row and position.
    public mutating func prepareFirstChoices(at starts: [(row: Int, latitude: Double, longitude: Double)]) {
        guard let selection, !starts.isEmpty else { return }
        let catalog = selection.catalog
        // As a device with no regions of its own asks (one with regions of its own asks for fewer, and queries).
        let wanted = max(0, min(settings.slotLimit, catalog.index.count))
        let answers = catalog.index.nearest(
            at: starts.map { ($0.latitude, $0.longitude) }, count: wanted,
            within: selection.settings.proximityRadius ?? .infinity, admitting: CatalogAdmission(settings))
        self.selection?.reserveRows((starts.map(\.row).max() ?? -1) + 1)
        self.selection?.prepared = PreparedChoices(
            answers: answers, rows: starts.map(\.row), latitudes: starts.map(\.latitude),
            longitudes: starts.map(\.longitude))
    }

    /// What the selection did so far (zero without a catalog).
    public var selectionSummary: SelectionSummary {
        guard let selection else { return SelectionSummary() }
        var seconds = 0.0
        for row in selection.firstTime.indices where selection.firstTime[row] != .min && row < rows.count {
            seconds += Double(rows[row].time - selection.firstTime[row]) / 1e6
        }
        return SelectionSummary(
            refreshes: selection.refreshes, added: selection.added, removed: selection.removed, deviceSeconds: seconds)
    }

    /// A device's first choice, right after its own regions registered (or were restored). `disc`: the exact
    /// path's disc its own regions leave at this position (``BoundaryClearance``), `nil` when they give none; the
    /// chosen circles narrow it, and the device's next sample starts from it.
    mutating func selectInitially(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp, restoring state: DeviceState?,
        disc: Double?, into events: inout [GeofenceEvent]
    ) {
        // Fields are read one by one: a copy of the whole selection would make every write below copy its tables
        // (and a copy of the catalog costs a retain and a release of each of its arrays and closures).
        guard let catalogCount = selection?.catalog.index.count else { return }
        selection?.grow(toInclude: row)
        let own = rows[row].slotCount
        let wanted = max(0, min(settings.slotLimit - Int(own), catalogCount))
        selection?.ownCount[row] = own
        selection?.capacity[row] = own + Int32(wanted)
        selection?.firstTime[row] = state?.time ?? time.microseconds
        if let state, let choice = state.chosen,
            restoreChoice(choice, of: state, device: device, row: row, wanted: wanted, latitude: latitude, longitude: longitude, time: time, into: &events)
        {
            return
        }
        let saved = state.map { Dictionary($0.regions.map { ($0.region, $0) }, uniquingKeysWith: { first, _ in first }) }
        let sample = SamplePlane(latitude: latitude, longitude: longitude)
        var disc = disc
        let chosen = choose(row: row, wanted: wanted, latitude: latitude, longitude: longitude, time: time)
        if state == nil && own == 0, let clearance = acceptAtOnce(chosen, row: row, sample: sample) {
            disc = disc.map { min($0, clearance) }
        } else if let catalog = selection?.catalog {
            acceptOneByOne(
                chosen, from: catalog, device: device, row: row, sample: sample, time: time, saved: saved, disc: &disc,
                into: &events)
        }
        let vacant = wanted - Int(rows[row].slotCount - own)
        for _ in 0..<vacant { slots.appendVacant() }
        selection?.vacancies += vacant
        // Every slot was measured at this position, as registration without a catalog leaves it.
        if let disc, !isRich { rows[row].clearance = BoundaryClearance(sample, radius: disc) }
    }

    /// A first choice of plain circles registered as one block (``acceptCircles(_:row:sample:)``), as registration
    /// registers a device's own circles: the same slots and clearances as one by one, for a device with no regions
    /// of its own and no saved state, where the circles may be (``canAcceptAtOnce(_:)``). Returns the smallest
    /// clearance, or `nil` with nothing registered.
    private mutating func acceptAtOnce(_ chosen: [Int32], row: Int, sample: SamplePlane) -> Double? {
        var circles: [MonitoredCircle] = []
        swap(&circles, &circleBuffer)
        defer { swap(&circles, &circleBuffer) }
        circles.removeAll(keepingCapacity: true)
        guard selection?.catalog.appendCircles(chosen, to: &circles) == true, canAcceptAtOnce(circles) else { return nil }
        return circles.withUnsafeBufferPointer { acceptCircles($0, row: row, sample: sample) }
    }

    /// A first choice registered region by region: plain circles through ``acceptCircle(_:at:device:sample:time:into:)``
    /// (which may report the initial side), anything else — or a region with saved state — through
    /// ``accept(_:device:row:latitude:longitude:time:restoring:into:)``. `disc` narrows to the circles' clearances.
    private mutating func acceptOneByOne(
        _ chosen: [Int32], from catalog: SharedCatalog, device: Int32, row: Int, sample: SamplePlane, time: Timestamp,
        saved: [Int32: DeviceState.Region]?, disc: inout Double?, into events: inout [GeofenceEvent]
    ) {
        let (latitude, longitude) = (sample.latitude, sample.longitude)
        for region in chosen {
            let slot = slots.count
            if saved?[region] == nil, let circle = catalog.circle(region) {
                rows[row].slotCount += 1
                let clearance = acceptCircle(circle, at: slot, device: device, sample: sample, time: time, into: &events)
                disc = disc.map { min($0, clearance) }
                continue
            }
            accept(
                catalog.region(region), device: device, row: row, latitude: latitude, longitude: longitude,
                time: time, restoring: saved?[region], into: &events)
            sharePolygon(of: region, at: slot)
            disc = nil
        }
    }

    /// A restored device continues with the catalog regions it had chosen before the restart (their state and
    /// timers, nothing reported again) and the anchor and time of that choice, so it chooses again only when its
    /// refresh rule says so. Returns `false` (nothing done) when the saved choice no longer fits the slots left.
    private mutating func restoreChoice(
        _ choice: DeviceState.Choice, of state: DeviceState, device: Int32, row: Int, wanted: Int, latitude: Double,
        longitude: Double, time: Timestamp, into events: inout [GeofenceEvent]
    ) -> Bool {
        guard let catalog = selection?.catalog else { return false }
        let start = Int(rows[row].slotStart)
        let own = Set(slots.regionID[start..<start + Int(rows[row].slotCount)])
        let chosen = state.regions.filter { !own.contains($0.region) && catalog.includes($0.region) }
        guard chosen.count <= wanted, abs(choice.latitude) <= 90, choice.longitude.isFinite else { return false }
        selection?.setAnchor(row: row, latitude: choice.latitude, longitude: choice.longitude)
        selection?.rule.chosenAt[row] = choice.time
        for saved in chosen {
            let slot = slots.count
            accept(
                catalog.region(saved.region), device: device, row: row, latitude: latitude, longitude: longitude,
                time: time, restoring: saved, into: &events)
            sharePolygon(of: saved.region, at: slot)
        }
        let vacant = wanted - chosen.count
        for _ in 0..<vacant { slots.appendVacant() }
        selection?.vacancies += vacant
        return true
    }

    /// Where and when a device last chose, for its snapshot (`nil` without a choice).
    func lastChoice(row: Int) -> DeviceState.Choice? {
        guard let rule = selection?.rule, row < rule.chosenAt.count, rule.chosenAt[row] != .min else { return nil }
        let anchor = rule.anchor[row]
        return DeviceState.Choice(latitude: anchor.latitude, longitude: anchor.longitude, time: rule.chosenAt[row])
    }

    /// Chooses again when the device has moved `refreshDistance` from where it last chose, or `refreshInterval`
    /// has passed; called after the sample was evaluated against the regions monitored so far.
    mutating func refreshSelectionIfDue(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp, into events: inout [GeofenceEvent]
    ) {
        // Called at every sample: the check reads scalars only. Binding the catalog (its index's arrays and
        // closures) before it knew a choice was due cost a quarter of a `nearest` run in reference counting.
        guard selection?.rule.isDue(row: row, latitude: latitude, longitude: longitude, time: time.microseconds) == true
        else { return }
        refreshSelection(device: device, row: row, latitude: latitude, longitude: longitude, time: time, into: &events)
    }

    /// Chooses again at this sample, which was evaluated against the regions monitored so far and at which the
    /// device is due to (``RefreshRule/isDue(row:latitude:longitude:time:)``): the regions no longer among the
    /// nearest leave the device's block and the new ones register.
    mutating func refreshSelection(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp, into events: inout [GeofenceEvent]
    ) {
        guard let catalog = selection?.catalog else { return }
        let own = Int(selection?.ownCount[row] ?? 0)
        let wanted = Int(selection?.capacity[row] ?? 0) - own
        let start = Int(rows[row].slotStart)
        let firstCatalogSlot = start + own
        var count = Int(rows[row].slotCount)
        // The regions monitored now, measured from here, bound the query (when their numbers are their positions),
        // should the guess from the query before not hold: measured only then. The slots' ids are borrowed for the
        // choice alone (a copy still alive when a slot moves would copy the table).
        let measurable = count - own == wanted && catalog.index.regionsAreTreePositions
        let catalogSlots = firstCatalogSlot..<start + count
        let admission = CatalogAdmission(settings)
        let chosen: [Int32]
        do {
            let regionIDs = slots.regionID
            chosen = choose(row: row, wanted: wanted, latitude: latitude, longitude: longitude, time: time) { point in
                measurable
                    ? catalog.index.farthest(
                        of: regionIDs[catalogSlots], latitude: latitude, longitude: longitude, point: point,
                        admitting: admission) : .infinity
            }
        }
        let before = count
        selection?.refreshes += 1
        // Out: regions no longer chosen; the last active slot fills the hole, so the block stays contiguous.
        if slots.hasPlainSlotsOnly {
            let block = firstCatalogSlot..<start + count
            let removed = slots.removePlainSlots(of: block) { chosen.binarySearchContains($0) }
            count -= removed
            selection?.removed += removed
        } else {
            var slot = firstCatalogSlot
            while slot < start + count {
                if chosen.binarySearchContains(slots.regionID[slot]) {
                    slot += 1
                    continue
                }
                slots.clear(slot)
                count -= 1
                if slot != start + count { moveSlot(from: start + count, to: slot, device: device) }
                selection?.removed += 1
            }
        }
        let kept = firstCatalogSlot..<start + count
        // The slots that stay, own and kept: their clearances were measured from the disc's centre.
        let stayed = start..<start + count
        // In: new regions. A plain circle is written straight into the block's next slot; any other region is
        // registered at the end of the table as any registration is, then moved into the block.
        let sample = SamplePlane(latitude: latitude, longitude: longitude)
        // The smallest clearance of the new regions at the sample (`nil` once one is not a plain circle).
        var addedClearance: Double? = BoundaryClearance.maximumRadius
        for region in chosen where !slots.regionID[kept].contains(region) {
            if let circle = catalog.circle(region) {
                let clearance = acceptCircle(
                    circle, at: start + count, device: device, sample: sample, time: time, into: &events)
                addedClearance = addedClearance.map { min($0, clearance) }
            } else {
                addedClearance = nil
                let appended = slots.count
                accept(
                    catalog.region(region), device: device, row: row, latitude: latitude, longitude: longitude,
                    time: time, restoring: nil, into: &events)
                sharePolygon(of: region, at: appended)
                moveSlot(from: appended, to: start + count, device: device)
                slots.removeLast()
            }
            count += 1
            selection?.added += 1
        }
        selection?.vacancies += before - count
        rows[row].slotCount = Int32(count)
        rows[row].clearance = clearanceAfterChoice(row: row, stayed: stayed, sample: sample, added: addedClearance)
    }

    /// The exact path's disc after a choice at `sample` (``BoundaryClearance``), centred there: the slots that
    /// stayed lose the distance moved from the old disc's centre (a bound from above, as the exact path subtracts
    /// it from a slot it does not test), and the new ones were measured at the sample (`added`: their smallest
    /// clearance, `nil` when one was not a plain circle). No disc (``BoundaryClearance/none``: the next sample
    /// tests every slot) where the old one gives no bound — none yet, or the device too far from its centre — or
    /// where the rich path evaluates.
    private mutating func clearanceAfterChoice(
        row: Int, stayed: Range<Int>, sample: SamplePlane, added: Double?
    ) -> BoundaryClearance {
        guard !isRich, let added else { return .none }
        let movedSquared = rows[row].clearance.movedSquared(latitude: sample.latitude, longitude: sample.longitude)
        guard movedSquared.isFinite else { return .none }
        let movedUnits = Int(BoundaryClearance.metres(fromSquared: movedSquared) / PackedRegion.clearanceUnit) + 1
        var smallestUnits = Int(UInt16.max)
        slots.packed.withUnsafeMutableBufferPointer { packed in
            for slot in stayed {
                let left = max(0, Int(packed[slot].clearance) - movedUnits)
                packed[slot].clearance = UInt16(truncatingIfNeeded: left)
                smallestUnits = min(smallestUnits, left)
            }
        }
        return BoundaryClearance(sample, radius: min(added, Double(smallestUnits) * PackedRegion.clearanceUnit))
    }

    /// The `wanted` nearest catalog regions at the position, in ascending region order; records where and when.
    /// `bound`: a distance from the point within which `wanted` catalog regions are known to lie, asked only when
    /// the query's first guess does not hold (see ``CatalogSelection/choose(row:wanted:latitude:longitude:time:admitting:otherwise:)``).
    private mutating func choose(
        row: Int, wanted: Int, latitude: Double, longitude: Double, time: Timestamp,
        otherwise bound: (EarthCentredPoint) -> Double = { _ in .infinity }
    ) -> [Int32] {
        // In place through the optional: taking the selection out and putting it back copied and destroyed the
        // whole struct (a retain and a release of each of its arrays) at every choice.
        selection?.choose(
            row: row, wanted: wanted, latitude: latitude, longitude: longitude, time: time.microseconds,
            admitting: CatalogAdmission(settings), otherwise: bound) ?? []
    }

    /// A catalog polygon takes one entry of the polygon table per monitor, however often it is chosen: monitored
    /// as a polygon or through its enclosing circle (``MonitorSettings/polygons``), the slot refers to the entry
    /// its first choice made, and the entry `accept` just appended for it is taken back.
    private mutating func sharePolygon(of region: Int32, at slot: Int) {
        guard slot < slots.count else { return }
        let appended: Int
        if slots.packed[slot].isPolygon {
            appended = slots.packed[slot].polygonIndex
        } else if let enclosed = slots.enclosedPolygon[slot] {
            appended = enclosed
        } else {
            return
        }
        guard let shared = selection?.polygonIndex[region] else {
            selection?.polygonIndex[region] = appended
            return
        }
        if appended == polygons.count - 1 { polygons.removeLast() }
        if slots.packed[slot].isPolygon {
            slots.packed[slot].polygonIndex = shared
        } else {
            slots.enclosedPolygon[slot] = shared
        }
    }
}

extension Array where Element == Int32 {
    /// Whether a sorted array holds the value.
    func binarySearchContains(_ value: Int32) -> Bool {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }
}
