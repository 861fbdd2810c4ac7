/// Snapshots: a device's state exported at the end of a run (or a snapshot cut) and restored in the next, so
/// monitoring continues across restarts without reporting anything twice.
extension MonitorState {
    /// The state of every device seen so far, to continue in a later run (see ``DeviceState``).
    public func exportState() -> [DeviceState] {
        var states: [DeviceState] = []
        for row in rows.indices where rows[row].time != Self.none {
            let start = Int(rows[row].slotStart)
            let device = Int32(row) * stride + residue
            let regions = (start..<start + Int(rows[row].slotCount)).map { slot in
                let pendingSince = slots.hasTimers ? slots.pendingSince[slot] : Self.none
                let dwellDue = slots.hasTimers ? slots.dwellDue[slot] : Self.none
                return DeviceState.Region(
                    region: slots.regionID[slot], inside: slots.packed[slot].flags & Self.inside != 0,
                    pendingSince: pendingSince == Self.none ? nil : pendingSince,
                    dwellDue: dwellDue == Self.none ? nil : dwellDue,
                    appInside: slots.enclosedPolygon[slot] == nil ? nil : slots.packed[slot].flags & Self.appInside != 0)
            }
            let delivered = row < deliveredUntil.count && deliveredUntil[row] != Self.none ? deliveredUntil[row] : nil
            states.append(
                DeviceState(
                    device: device, time: rows[row].time, latitude: rows[row].latitude, longitude: rows[row].longitude,
                    regions: regions, failed: failedRegions[device] ?? [], deliveredUntil: delivered,
                    chosen: lastChoice(row: row)))
        }
        return states
    }

    /// Continues a device from an earlier run at its first sample here: the regions it had take their saved
    /// state and timers (nothing is reported again), and the sample is then evaluated against them. Regions it did
    /// not have before register as usual at that sample — their initial triggers and refusals are reported, as an
    /// app that starts monitoring a new region sees them.
    mutating func restore(
        _ state: DeviceState, row: Int, latitude: Double, longitude: Double, time: Timestamp, regions: RegionSource,
        into events: inout [GeofenceEvent]
    ) {
        rows[row].time = state.time
        rows[row].latitude = state.latitude
        rows[row].longitude = state.longitude
        if let delivered = state.deliveredUntil {
            if row >= deliveredUntil.count {
                deliveredUntil.append(contentsOf: repeatElement(Self.none, count: row + 1 - deliveredUntil.count))
            }
            deliveredUntil[row] = delivered
        }
        register(
            device: state.device, row: row, latitude: latitude, longitude: longitude, time: time, restoring: state,
            regions: regions, into: &events)
    }
}
