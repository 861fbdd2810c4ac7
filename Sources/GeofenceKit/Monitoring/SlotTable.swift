/// Every per-slot field of a ``MonitorState``: parallel arrays indexed by slot, and the rarer fields kept in
/// dictionaries by slot (allocated only where a region uses them).
///
/// A slot is appended, moved, cleared and removed through this type only, so a new per-slot field is one edit
/// here. What the exact path's loop reads (centre, radius, flags, clearance) is one 24-byte record
/// (``PackedRegion``); the region id, read only for events, is apart. A slot costs 28 bytes on the exact path.
struct SlotTable: Sendable {
    /// What a new slot holds.
    struct Slot {
        /// A circle's centre and radius, or a polygon's index (``PackedRegion/init(polygonIndex:)``).
        var geometry: PackedRegion
        /// The circle's radius as registered (the record holds the nearest `Float`).
        var radius: Double = 0
        var region: Int32
        var flags: UInt8
        var loiteringDelay: Double? = nil
        var hysteresis: Hysteresis? = nil
        var responsiveness: Double? = nil
        /// For a polygon monitored through its enclosing circle: the polygon's index in the monitor's table.
        var enclosedPolygon: Int? = nil
    }

    var packed: [PackedRegion] = []
    /// The region's id; -1 for a vacant slot.
    var regionID: [Int32] = []
    /// Every slot's exact radius, once a radius that a `Float` does not hold was registered (empty until then).
    private(set) var exactRadius: [Double] = []
    private(set) var hasExactRadii = false
    /// Rich path only (empty until ``keepTimers()``, to keep a million devices in memory): when the device first
    /// stood past the boundary towards the other state, and when a dwell falls due (`.min`: none).
    var pendingSince: [Int64] = []
    var dwellDue: [Int64] = []
    /// Whether every slot has timer storage (`pendingSince`, `dwellDue`).
    private(set) var hasTimers = false
    /// Loitering delays of the slots whose region sets its own.
    var ownLoiteringDelay: [Int: Double] = [:]
    /// Hysteresis of the slots whose region sets its own (buffer, confirmation time).
    var ownHysteresis: [Int: Hysteresis] = [:]
    /// Android's `notificationResponsiveness` of the slots whose region sets one.
    var ownResponsiveness: [Int: Double] = [:]
    /// Slots that monitor a polygon's enclosing circle (`monitor.polygons: "enclosingCircle"`): the polygon's index.
    var enclosedPolygon: [Int: Int] = [:]

    static let none: Int64 = .min

    var count: Int { regionID.count }

    /// A circle slot's radius in metres, exactly as registered.
    @inline(__always)
    func radius(_ slot: Int) -> Double {
        hasExactRadii ? exactRadius[slot] : Double(packed[slot].radius)
    }

    /// Slots reserved by ``reserveCapacity(_:)``: the exact radii, once kept, are reserved as many at once.
    private var reservedSlots = 0

    mutating func reserveCapacity(_ slots: Int) {
        reservedSlots = max(reservedSlots, slots)
        packed.reserveCapacity(slots)
        regionID.reserveCapacity(slots)
        if hasExactRadii { exactRadius.reserveCapacity(slots) }
    }

    /// Faults in the pages of the room reserved beyond the slots so far, in one system call per array
    /// (``PrefaultedMemory``): for a table about to be filled, such as one reserved for every device of a run.
    mutating func prefaultReservedRoom() {
        PrefaultedMemory.populate(capacityOf: &packed)
        PrefaultedMemory.populate(capacityOf: &regionID)
        if hasExactRadii { PrefaultedMemory.populate(capacityOf: &exactRadius) }
    }

    /// Gives every slot, present and future, timer storage (the rich path's).
    mutating func keepTimers() {
        guard !hasTimers else { return }
        hasTimers = true
        pendingSince = Array(repeating: Self.none, count: count)
        dwellDue = Array(repeating: Self.none, count: count)
    }

    /// Appends a slot with no timers running.
    ///
    /// Written straight to the end of each array (registration appends 20 million slots for a million devices), with
    /// the helpers below inlined: called apart, they cost 21 more instructions a slot. Inlined itself, so that a
    /// caller's absent rare fields (a plain circle's) cost no test.
    @inline(__always)
    mutating func append(_ slot: Slot) {
        let exact = registeredRadius(of: slot)
        packed.append(record(of: slot))
        regionID.append(slot.region)
        if hasExactRadii { exactRadius.append(exact) }
        if hasTimers {
            pendingSince.append(Self.none)
            dwellDue.append(Self.none)
        }
        keepRareFields(of: slot, at: count - 1)
    }

    /// Appends the slots of plain circles (``MonitoredCircle``) with no timers running, in order: `records` are
    /// their records as ``append(_:)`` would make them (flags and clearance set), `regions` their ids. One copy per
    /// array for all of them: registration appends a device's circles together.
    /// - Parameter radiiFitFloats: whether every circle's radius is its record's `Float` (``PackedRegion/radius``);
    ///   one that is not makes the table keep every slot's exact radius from then on.
    mutating func appendCircles(
        _ records: UnsafeBufferPointer<PackedRegion>, regions: UnsafeBufferPointer<Int32>,
        of circles: UnsafeBufferPointer<MonitoredCircle>, radiiFitFloats: Bool
    ) {
        if !hasExactRadii && !radiiFitFloats { keepExactRadii() }
        packed.append(contentsOf: records)
        regionID.append(contentsOf: regions)
        if hasExactRadii { for circle in circles { exactRadius.append(circle.radius) } }
        if hasTimers {
            pendingSince.append(contentsOf: repeatElement(Self.none, count: circles.count))
            dwellDue.append(contentsOf: repeatElement(Self.none, count: circles.count))
        }
    }

    /// Writes a slot with no timers running over slot `index`, which must be clear (a vacancy, or just appended);
    /// appends it when `index` is ``count``. The record's clearance is the slot's (0 unless the caller measured one).
    @inline(__always)
    mutating func store(_ slot: Slot, at index: Int) {
        guard index < count else { return append(slot) }
        let exact = registeredRadius(of: slot)
        packed[index] = record(of: slot)
        regionID[index] = slot.region
        if hasExactRadii { exactRadius[index] = exact }
        if hasTimers {
            pendingSince[index] = Self.none
            dwellDue[index] = Self.none
        }
        keepRareFields(of: slot, at: index)
    }

    /// The record the exact path reads: the slot's geometry with its flags.
    @inline(__always)
    private func record(of slot: Slot) -> PackedRegion {
        var record = slot.geometry
        record.flags = slot.flags
        return record
    }

    /// The slot's radius exactly as registered; the first one that a `Float` does not hold makes the table keep
    /// every slot's (``exactRadius``, from the records so far).
    @inline(__always)
    private mutating func registeredRadius(of slot: Slot) -> Double {
        let exact = slot.geometry.isPolygon ? Double(slot.geometry.radius) : slot.radius
        if !hasExactRadii && Double(slot.geometry.radius) != exact { keepExactRadii() }
        return exact
    }

    /// Makes the table keep every slot's exact radius, from the records so far (whose radii were exact), with room
    /// for every slot reserved: grown by doubling, the array touched about twice its final size in fresh pages (36
    /// instead of 16 MB for 100,000 devices × 20 catalog slots), and a fresh page costs more than its copy.
    @inline(never)
    private mutating func keepExactRadii() {
        hasExactRadii = true
        exactRadius.reserveCapacity(max(reservedSlots, packed.count))
        // Kept from a registration on (a catalog's first choice): the room is about to be written through.
        PrefaultedMemory.populate(capacityOf: &exactRadius)
        exactRadius.append(contentsOf: packed.lazy.map { Double($0.radius) })
    }

    /// The per-slot fields kept in dictionaries, where the slot's region sets them.
    @inline(__always)
    private mutating func keepRareFields(of slot: Slot, at index: Int) {
        if let delay = slot.loiteringDelay { ownLoiteringDelay[index] = delay }
        if let hysteresis = slot.hysteresis { ownHysteresis[index] = hysteresis }
        if let responsiveness = slot.responsiveness { ownResponsiveness[index] = responsiveness }
        if let polygon = slot.enclosedPolygon { enclosedPolygon[index] = polygon }
    }

    /// Appends a slot that monitors nothing (a block's room for a region chosen later).
    mutating func appendVacant() {
        append(Slot(geometry: PackedRegion(polygonIndex: 0), region: -1, flags: 0))
    }

    /// Forgets a slot's region: its timers stop (a queued timer finds nothing pending and does nothing).
    mutating func clear(_ slot: Int) {
        regionID[slot] = -1
        packed[slot].flags = 0
        if hasTimers {
            pendingSince[slot] = Self.none
            dwellDue[slot] = Self.none
        }
        // Each dictionary only where a region uses it: even an empty one hashes the key to remove it (a catalog's
        // rotation clears and moves slots millions of times).
        if !ownLoiteringDelay.isEmpty { ownLoiteringDelay[slot] = nil }
        if !ownHysteresis.isEmpty { ownHysteresis[slot] = nil }
        if !ownResponsiveness.isEmpty { ownResponsiveness[slot] = nil }
        if !enclosedPolygon.isEmpty { enclosedPolygon[slot] = nil }
    }

    /// Moves a slot's region, state and timers to another slot; the old slot is left clear. The caller queues
    /// the moved timers again (the queue refers to slots).
    mutating func move(from source: Int, to target: Int) {
        packed[target] = packed[source]
        regionID[target] = regionID[source]
        if hasExactRadii { exactRadius[target] = exactRadius[source] }
        if !ownLoiteringDelay.isEmpty { ownLoiteringDelay[target] = ownLoiteringDelay.removeValue(forKey: source) }
        if !ownHysteresis.isEmpty { ownHysteresis[target] = ownHysteresis.removeValue(forKey: source) }
        if !ownResponsiveness.isEmpty { ownResponsiveness[target] = ownResponsiveness.removeValue(forKey: source) }
        if !enclosedPolygon.isEmpty { enclosedPolygon[target] = enclosedPolygon.removeValue(forKey: source) }
        if hasTimers {
            pendingSince[target] = pendingSince[source]
            dwellDue[target] = dwellDue[source]
        }
        clear(source)
    }

    /// Whether every slot is its record, id and exact radius alone: no timers, and no slot with a rare field.
    var hasPlainSlotsOnly: Bool {
        !hasTimers && ownLoiteringDelay.isEmpty && ownHysteresis.isEmpty && ownResponsiveness.isEmpty
            && enclosedPolygon.isEmpty
    }

    /// Removes the slots of `block` whose region `keeps` refuses, as ``clear(_:)`` and then ``move(from:to:)`` of
    /// the block's last slot into the hole do, one hole at a time from the first (the moved slot is checked in
    /// turn); returns how many were removed, the block's last slots being left clear. Through pointers: a catalog
    /// device's refresh removes about 14 slots, and each of those calls checked its arrays' uniqueness and bounds
    /// and the rare fields' dictionaries.
    /// - Precondition: ``hasPlainSlotsOnly``.
    mutating func removePlainSlots(of block: Range<Int>, keeping keeps: (Int32) -> Bool) -> Int {
        precondition(hasPlainSlotsOnly, "slots with timers or rare fields are moved one by one")
        var end = block.upperBound
        let keepsExactRadii = hasExactRadii
        packed.withUnsafeMutableBufferPointer { packed in
            regionID.withUnsafeMutableBufferPointer { regionID in
                exactRadius.withUnsafeMutableBufferPointer { exactRadius in
                    var slot = block.lowerBound
                    while slot < end {
                        if keeps(regionID[slot]) {
                            slot += 1
                            continue
                        }
                        end -= 1
                        regionID[slot] = -1
                        packed[slot].flags = 0
                        guard slot != end else { continue }
                        packed[slot] = packed[end]
                        regionID[slot] = regionID[end]
                        if keepsExactRadii { exactRadius[slot] = exactRadius[end] }
                        regionID[end] = -1
                        packed[end].flags = 0
                    }
                }
            }
        }
        return block.upperBound - end
    }

    /// Removes the last slot.
    mutating func removeLast() {
        clear(count - 1)
        packed.removeLast()
        regionID.removeLast()
        if hasExactRadii { exactRadius.removeLast() }
        if hasTimers {
            pendingSince.removeLast()
            dwellDue.removeLast()
        }
    }
}
