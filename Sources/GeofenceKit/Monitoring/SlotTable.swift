/// Every per-slot field of a ``MonitorState``: parallel arrays indexed by slot, and the rarer fields kept in
/// dictionaries by slot (allocated only where a region uses them).
///
/// A slot is appended, moved, cleared and removed through this type only, so a new per-slot field is one edit
/// here. The arrays stay separate (not one array of structs) so that the exact path's loop reads only what it
/// needs: the geometry, the clearance and the flags.
struct SlotTable: Sendable {
    /// What a new slot holds.
    struct Slot {
        var geometry: PackedRegion
        var region: Int32
        var flags: UInt8
        var loiteringDelay: Double? = nil
        var hysteresis: Hysteresis? = nil
        var responsiveness: Double? = nil
        /// For a polygon monitored through its enclosing circle: the polygon's index in the monitor's table.
        var enclosedPolygon: Int? = nil
    }

    var geometry: [PackedRegion] = []
    /// The region's id; -1 for a vacant slot.
    var regionID: [Int32] = []
    var flags: [UInt8] = []
    /// Exact path only: a lower bound of the distance from the device's clearance's centre to the slot's boundary
    /// (see `MonitorState+ExactPath`).
    var clearance: [Float] = []
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

    mutating func reserveCapacity(_ slots: Int) {
        geometry.reserveCapacity(slots)
        regionID.reserveCapacity(slots)
        flags.reserveCapacity(slots)
        clearance.reserveCapacity(slots)
    }

    /// Gives every slot, present and future, timer storage (the rich path's).
    mutating func keepTimers() {
        guard !hasTimers else { return }
        hasTimers = true
        pendingSince = Array(repeating: Self.none, count: count)
        dwellDue = Array(repeating: Self.none, count: count)
    }

    /// Appends a slot with no timers running and no clearance.
    mutating func append(_ slot: Slot) {
        let index = count
        geometry.append(slot.geometry)
        regionID.append(slot.region)
        flags.append(slot.flags)
        clearance.append(0)
        if hasTimers {
            pendingSince.append(Self.none)
            dwellDue.append(Self.none)
        }
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
        flags[slot] = 0
        if hasTimers {
            pendingSince[slot] = Self.none
            dwellDue[slot] = Self.none
        }
        ownLoiteringDelay[slot] = nil
        ownHysteresis[slot] = nil
        ownResponsiveness[slot] = nil
        enclosedPolygon[slot] = nil
    }

    /// Moves a slot's region, state and timers to another slot; the old slot is left clear. The caller queues
    /// the moved timers again (the queue refers to slots).
    mutating func move(from source: Int, to target: Int) {
        geometry[target] = geometry[source]
        regionID[target] = regionID[source]
        flags[target] = flags[source]
        clearance[target] = clearance[source]
        ownLoiteringDelay[target] = ownLoiteringDelay.removeValue(forKey: source)
        ownHysteresis[target] = ownHysteresis.removeValue(forKey: source)
        ownResponsiveness[target] = ownResponsiveness.removeValue(forKey: source)
        enclosedPolygon[target] = enclosedPolygon.removeValue(forKey: source)
        if hasTimers {
            pendingSince[target] = pendingSince[source]
            dwellDue[target] = dwellDue[source]
        }
        clear(source)
    }

    /// Removes the last slot.
    mutating func removeLast() {
        clear(count - 1)
        geometry.removeLast()
        regionID.removeLast()
        flags.removeLast()
        clearance.removeLast()
        if hasTimers {
            pendingSince.removeLast()
            dwellDue.removeLast()
        }
    }
}
