/// The exact path: a containment test per slot (boundary inside), a flag flip and an event on a change — tested
/// only where the device may have crossed a boundary since the slot's last test (``BoundaryClearance``).
extension MonitorState {
    /// Evaluates one sample of a registered device under the exact rules.
    ///
    /// A sample inside the device's disc costs one distance bound. Outside it, every slot's clearance is
    /// measured again from the sample, less the distance moved (a bound from above); only the slots whose
    /// clearance that used up are tested, and the disc moves to the sample with the smallest clearance left.
    mutating func evaluateExact(
        device: Int32, row: Int, slots range: Range<Int>, latitude: Double, longitude: Double, time: Timestamp,
        into events: inout [GeofenceEvent]
    ) {
        let movedSquared = clearances[row].movedSquared(latitude: latitude, longitude: longitude)
        // Still inside the disc no boundary crosses: every containment is as it was.
        if movedSquared < Double(clearances[row].radiusSquared) { return }
        // Beyond the disc's reach (or with no disc yet) every slot is tested.
        let moved = movedSquared.isFinite ? BoundaryClearance.metres(fromSquared: movedSquared) : .infinity
        var smallest = BoundaryClearance.maximumRadius
        // The plane's terms, once for every slot tested.
        let sample = SamplePlane(latitude: latitude, longitude: longitude)
        // One uniqueness check for the loop instead of one per slot.
        slots.clearance.withUnsafeMutableBufferPointer { slotClearance in
            for slot in range {
                var left = Double(slotClearance[slot]) - moved
                // Tested again before the clearance runs out, while the test still buys a long skip: an untested
                // slot's clearance only shrinks (by each distance moved), a tested one's is the true distance.
                if left > Self.retestFactor * moved {
                    slotClearance[slot] = Self.roundedDown(left)
                    smallest = min(smallest, left)
                    continue
                }
                let region = slots.geometry[slot]
                left = BoundaryClearance.maximumRadius
                let isInside: Bool
                if region.isPolygon {
                    isInside = polygons[region.polygonIndex].contains(latitude: latitude, longitude: longitude)
                    left = 0
                } else {
                    isInside = region.circleContains(sample, clearance: &left)
                }
                slotClearance[slot] = Self.roundedDown(left)
                smallest = min(smallest, left)
                let slotFlags = slots.flags[slot]
                guard isInside != (slotFlags & Self.inside != 0) else { continue }
                slots.flags[slot] = slotFlags ^ Self.inside
                if isInside ? slotFlags & Self.notifyOnEntry != 0 : slotFlags & Self.notifyOnExit != 0 {
                    events.append(
                        GeofenceEvent(
                            device: device, region: slots.regionID[slot], kind: isInside ? .enter : .exit, time: time,
                            latitude: latitude, longitude: longitude))
                }
            }
        }
        clearances[row] = BoundaryClearance(latitude: latitude, longitude: longitude, radius: smallest)
    }

    /// A slot whose clearance left is within this many times the distance just moved is tested again.
    static var retestFactor: Double { 2 }

    /// A `Float` not above a positive `value` (and not positive for a negative one): shrunk by more than a
    /// `Float`'s rounding error (2⁻²⁴ of the value) before it is rounded.
    @inline(__always)
    static func roundedDown(_ value: Double) -> Float {
        Float(value * (1 - 1e-6) - 1e-6)
    }
}
