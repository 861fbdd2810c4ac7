/// Snapshots: a device's state exported at the end of a run (or a snapshot cut) and restored in the next, so
/// monitoring continues across restarts without reporting anything twice.
extension MonitorState {
    /// The state of every device seen so far, to continue in a later run (see ``DeviceState``).
    public func exportState() -> [DeviceState] {
        seenRows.map { exportState(row: Int($0)) }
    }

    /// The rows of the devices seen so far, in order: ``exportState(row:)`` exports each (``exportState()`` all of
    /// them at once).
    public var seenRows: [Int32] {
        rows.indices.lazy.filter { rows[$0].time != Self.none }.map(Int32.init)
    }

    /// The device of a row.
    public func device(ofRow row: Int) -> Int32 {
        Int32(row) * stride + residue
    }

    /// The state of the device of a row seen so far (one of ``seenRows``).
    public func exportState(row: Int) -> DeviceState {
        let start = Int(rows[row].slotStart)
        let device = device(ofRow: row)
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
        return DeviceState(
            device: device, time: rows[row].time, latitude: rows[row].latitude, longitude: rows[row].longitude,
            regions: regions, failed: failedRegions[device] ?? [], deliveredUntil: delivered,
            chosen: lastChoice(row: row))
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
