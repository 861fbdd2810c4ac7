/// What a ``MonitorState`` keeps per device (one row per device of its shard), in one 56-byte record so that a
/// sample reads and writes one place: the device's block of slots, its latest sample and the exact path's disc.
struct DeviceRow: Sendable {
    /// The device's slots: `slotStart ..< slotStart + slotCount`.
    var slotStart: Int32 = 0
    var slotCount: Int32 = 0
    /// The latest sample's time (`MonitorState.none`: the device has sent nothing yet) and position.
    var time: Int64 = MonitorState.none
    var latitude: Double = 0
    var longitude: Double = 0
    /// Exact path only: the disc around the device's position at its last full test that no boundary crosses.
    var clearance = BoundaryClearance.none

    /// The slots of the device's block.
    @inline(__always) var slots: Range<Int> { Int(slotStart)..<Int(slotStart) + Int(slotCount) }
}
