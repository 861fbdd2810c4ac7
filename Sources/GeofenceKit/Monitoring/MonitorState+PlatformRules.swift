/// The rich path: the platform rules beyond exact containment — the confidence rule (share of the accuracy
/// circle inside), hysteresis (buffer distance and confirmation time), and the events they lead to.
extension MonitorState {
    enum Side { case inside, outside, undecided }

    /// Which side the sample puts the device on, after the profile's confidence or hysteresis rule.
    private func side(slot: Int, sample: SamplePlane, accuracy: Double?) -> Side {
        let latitude = sample.latitude, longitude = sample.longitude
        let packed = slots.packed[slot]
        let polygon: RegionGeometry? = packed.isPolygon ? .polygon(polygons[packed.polygonIndex]) : nil
        let radius = polygon == nil ? slots.radius(slot) : 0
        let size = polygon?.characteristicRadius ?? radius

        if let confidence = settings.confidence, let accuracy, accuracy.isFinite, accuracy > 0 {
            let small = size < confidence.smallRadius
            func decision(_ fraction: Double) -> Side {
                if fraction >= (small ? confidence.smallEnterFraction : confidence.enterFraction) { return .inside }
                if fraction <= (small ? confidence.smallExitFraction : confidence.exitFraction) { return .outside }
                return .undecided
            }
            if case .polygon(let polygon)? = polygon {
                return polygon.decideOnSignedBoundaryDistance(latitude: latitude, longitude: longitude) { signed in
                    decision(RegionGeometry.halfPlaneFraction(signedDistance: signed, accuracy: accuracy))
                }
            }
            // The share falls as the distance to the centre grows: the plane decides unless its error could
            // change the outcome (GuardedDistance).
            return packed.decideOnCentreDistance(from: sample) { distance in
                decision(RegionGeometry.lensFraction(distance: distance, accuracy: accuracy, radius: radius))
            }
        }
        let hysteresis = hysteresis(slot)
        guard hysteresis.bufferDistance > 0 else {
            let isInside = polygon?.contains(latitude: latitude, longitude: longitude)
                ?? packed.circleContains(sample, radius: radius)
            return isInside ? .inside : .outside
        }
        let entry = hysteresis.entryBuffer(radius: size)
        if case .polygon(let polygon)? = polygon {
            let distance = polygon.signedBoundaryDistance(
                latitude: latitude, longitude: longitude, comparedWith: entry, -hysteresis.bufferDistance)
            if distance >= entry { return .inside }
            if distance <= -hysteresis.bufferDistance { return .outside }
            return .undecided
        }
        // Inside once within radius − entry buffer of the centre, outside from radius + buffer: the centre distance
        // is exact wherever the plane could put it on the wrong side of either (GuardedDistance).
        let inner = radius - entry, outer = radius + hysteresis.bufferDistance
        let distance = packed.centreDistance(from: sample, comparedWith: inner, outer)
        if distance <= inner { return .inside }
        if distance >= outer { return .outside }
        return .undecided
    }

    mutating func evaluateRich(
        slot: Int, device: Int32, row: Int, sample: SamplePlane, time: Timestamp, accuracy: Double?,
        into events: inout [GeofenceEvent]
    ) {
        let latitude = sample.latitude, longitude = sample.longitude
        let isInside = slots.packed[slot].flags & Self.inside != 0
        switch side(slot: slot, sample: sample, accuracy: accuracy) {
        case .undecided:
            // Back within the buffer: a transition waiting for confirmation starts over.
            slots.pendingSince[slot] = Self.none
        case .inside where isInside, .outside where !isInside:
            slots.pendingSince[slot] = Self.none
        case .inside, .outside:
            let confirmation = hysteresis(slot).confirmationTime
            if confirmation <= 0 {
                transition(slot: slot, device: device, at: time.microseconds, latitude: latitude, longitude: longitude, into: &events)
            } else if slots.pendingSince[slot] == Self.none {
                slots.pendingSince[slot] = time.microseconds
                timers.push(
                    TimerQueue.Timer(
                        due: time.microseconds + self.confirmation(slot), device: device, slot: Int32(slot),
                        kind: .confirmation))
            }
        }
    }

    mutating func transition(
        slot: Int, device: Int32, at time: Int64, latitude: Double, longitude: Double, into events: inout [GeofenceEvent]
    ) {
        slots.pendingSince[slot] = Self.none
        slots.packed[slot].flags ^= Self.inside
        var slotFlags = slots.packed[slot].flags
        var entered = slotFlags & Self.inside != 0
        if let polygon = slots.enclosedPolygon[slot] {
            // The platform reported the enclosing circle: the app tests the polygon at the event's position.
            let inPolygon = entered && polygons[polygon].contains(latitude: latitude, longitude: longitude)
            guard inPolygon != (slotFlags & Self.appInside != 0) else { return }
            slots.packed[slot].flags ^= Self.appInside
            slotFlags = slots.packed[slot].flags
            entered = inPolygon
        }
        let stamp = Timestamp(microseconds: time)
        if entered {
            if slotFlags & Self.notifyOnEntry != 0 {
                emit(.enter, device: device, slot: slot, time: stamp, latitude: latitude, longitude: longitude, into: &events)
            }
            if slotFlags & Self.notifyOnDwell != 0 { startDwell(device: device, slot: slot, from: time) }
        } else {
            slots.dwellDue[slot] = Self.none  // never a dwell after an exit
            if slotFlags & Self.notifyOnExit != 0 {
                emit(.exit, device: device, slot: slot, time: stamp, latitude: latitude, longitude: longitude, into: &events)
            }
        }
        if settings.statePerTransition {
            // didDetermineState is called on every boundary transition, beside didEnter / didExit.
            // Delivered with the transition's own event: the same delay.
            emit(
                .state, device: device, slot: slot, time: stamp, latitude: latitude, longitude: longitude, inside: entered,
                drawnAs: entered ? .enter : .exit, into: &events)
        }
    }

    /// The slot's hysteresis: its region's own, else the profile's.
    func hysteresis(_ slot: Int) -> Hysteresis { slots.ownHysteresis[slot] ?? settings.hysteresis }

    /// The slot's confirmation time in microseconds.
    func confirmation(_ slot: Int) -> Int64 { Int64(hysteresis(slot).confirmationTime * 1e6) }
}
