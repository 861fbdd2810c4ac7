/// The exact path: a containment test per slot (boundary inside), a flag flip and an event on a change — tested
/// only where the device may have crossed a boundary since the slot's last test (``BoundaryClearance``).
extension MonitorState {
    /// Evaluates one sample of a registered device under the exact rules.
    ///
    /// A sample inside the device's disc costs one distance bound. Outside it, every slot's clearance is
    /// measured again from the sample, less the distance moved (a bound from above); only the slots whose
    /// clearance that used up are tested, and the disc moves to the sample with the smallest clearance left.
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
        let movedSquared = deviceRow.clearance.movedSquared(latitude: latitude, longitude: longitude)
        // Still inside the disc no boundary crosses: every containment is as it was.
        if movedSquared < Double(deviceRow.clearance.radiusSquared) { return }
        // Beyond the disc's reach (or with no disc yet) every slot is tested.
        let moved = movedSquared.isFinite ? BoundaryClearance.metres(fromSquared: movedSquared) : .infinity
        // The same in clearance units, rounded up (integers from here: no conversion per slot).
        let movedUnits = moved <= BoundaryClearance.maximumRadius ? Int(moved / PackedRegion.clearanceUnit) + 1 : 1 << 30
        var smallestUnits = Int(UInt16.max)
        var smallest = BoundaryClearance.maximumRadius
        // The plane's terms, once for every slot tested.
        let sample = SamplePlane(latitude: latitude, longitude: longitude)
        // The exact radii only where the table keeps them: copying the array, even an empty one, is a retain and a
        // release at every sample that leaves its disc.
        let exactRadius = slots.hasExactRadii ? slots.exactRadius : nil
        // One uniqueness check for the loop instead of one per slot.
        slots.packed.withUnsafeMutableBufferPointer { packed in
            for slot in deviceRow.slots {
                let leftUnits = Int(packed[slot].clearance) - movedUnits
                // Tested again before the clearance runs out, while the test still buys a long skip: an untested
                // slot's clearance only shrinks (by each distance moved), a tested one's is the true distance.
                if leftUnits > Self.retestFactor * movedUnits {
                    packed[slot].clearance = UInt16(truncatingIfNeeded: leftUnits)
                    smallestUnits = min(smallestUnits, leftUnits)
                    continue
                }
                let region = packed[slot]
                var left = BoundaryClearance.maximumRadius
                let isInside: Bool
                if region.isPolygon {
                    isInside = polygons[region.polygonIndex].contains(latitude: latitude, longitude: longitude)
                    left = 0
                } else {
                    let radius = exactRadius?[slot] ?? Double(region.radius)
                    isInside = region.circleContains(sample, radius: radius, clearance: &left)
                }
                packed[slot].setClearance(metres: left)
                smallest = min(smallest, left)
                let slotFlags = region.flags
                guard isInside != (slotFlags & Self.inside != 0) else { continue }
                packed[slot].flags = slotFlags ^ Self.inside
                if isInside ? slotFlags & Self.notifyOnEntry != 0 : slotFlags & Self.notifyOnExit != 0 {
                    events.append(
                        GeofenceEvent(
                            device: device, region: slots.regionID[slot], kind: isInside ? .enter : .exit, time: time,
                            latitude: latitude, longitude: longitude))
                }
            }
        }
        smallest = min(smallest, Double(smallestUnits) * PackedRegion.clearanceUnit)
        deviceRow.clearance = BoundaryClearance(sample, radius: smallest)
    }

    /// A slot whose clearance left is within this many times the distance just moved is tested again.
    static var retestFactor: Int { 2 }
}
