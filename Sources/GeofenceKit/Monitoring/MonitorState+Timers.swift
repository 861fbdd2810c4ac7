/// Timers: confirmations and dwells that fall due, fired in time order whether a device's next sample or the
/// source's watermark moves the clock; and delivery of events, which a backgrounded app only counts.
extension MonitorState {
    /// Moves the clock to `time` for every device: fires the confirmation and dwell timers due by then, in time
    /// order, at their due times and the devices' last known positions.
    ///
    /// The caller promises that no later sample of any device of this table is older than `time` (a source's
    /// watermark), so a timer never fires ahead of a sample that would have cancelled it.
    public mutating func advance(to time: Timestamp, into events: inout [GeofenceEvent]) {
        while let timer = timers.popDue(upTo: time.microseconds) {
            fire(timer, into: &events)
        }
    }

    /// Fires the timers of one device that fell due up to `time`, in due order (before its sample at `time`).
    ///
    /// One at a time, looking again after each: a confirmed entry starts a dwell timer that may itself fall due
    /// before the sample, exactly as ``advance(to:into:)`` would fire it — so the events do not depend on whether
    /// a watermark or the device's next sample moved the clock.
    mutating func fireDueTimers(
        device: Int32, row: Int, slots range: Range<Int>, upTo time: Int64, into events: inout [GeofenceEvent]
    ) {
        while true {
            var next: TimerQueue.Timer?
            func consider(_ timer: TimerQueue.Timer) {
                guard let current = next else { return next = timer }
                if (timer.due, timer.slot, timer.kind.rawValue) < (current.due, current.slot, current.kind.rawValue) {
                    next = timer
                }
            }
            for slot in range {
                let confirmation = self.confirmation(slot)
                if slots.pendingSince[slot] != Self.none && slots.pendingSince[slot] + confirmation <= time {
                    consider(.init(due: slots.pendingSince[slot] + confirmation, device: device, slot: Int32(slot), kind: .confirmation))
                }
                if slots.dwellDue[slot] != Self.none && slots.dwellDue[slot] <= time {
                    consider(.init(due: slots.dwellDue[slot], device: device, slot: Int32(slot), kind: .dwell))
                }
            }
            guard let timer = next else { return }
            fire(timer, into: &events)
        }
    }

    /// Fires a timer if it still stands (the queue keeps stale entries; the slot's state is the truth).
    mutating func fire(_ timer: TimerQueue.Timer, into events: inout [GeofenceEvent]) {
        let slot = Int(timer.slot)
        let row = Int(timer.device / stride)
        // A catalog choice moves slots within a device's block and reuses the slots it vacates: a queued timer
        // counts only for a slot its device still holds.
        guard slot >= Int(rows[row].slotStart), slot < Int(rows[row].slotStart + rows[row].slotCount) else { return }
        switch timer.kind {
        case .confirmation:
            guard slots.pendingSince[slot] != Self.none, slots.pendingSince[slot] + confirmation(slot) == timer.due else { return }
            transition(
                slot: slot, device: timer.device, at: timer.due, latitude: rows[row].latitude,
                longitude: rows[row].longitude, into: &events)
        case .dwell:
            guard slots.dwellDue[slot] == timer.due else { return }
            slots.dwellDue[slot] = Self.none
            guard slots.packed[slot].flags & Self.inside != 0 else { return }
            emit(
                .dwell, device: timer.device, slot: slot, time: Timestamp(microseconds: timer.due),
                latitude: rows[row].latitude, longitude: rows[row].longitude, into: &events)
        }
    }

    /// Moves a slot's region, state and timers to another slot of the same device (the old slot is left clear),
    /// and queues its running timers again under the new slot.
    mutating func moveSlot(from source: Int, to target: Int, device: Int32) {
        slots.move(from: source, to: target)
        guard slots.hasTimers else { return }
        if slots.pendingSince[target] != Self.none {
            timers.push(
                TimerQueue.Timer(
                    due: slots.pendingSince[target] + confirmation(target), device: device, slot: Int32(target),
                    kind: .confirmation))
        }
        if slots.dwellDue[target] != Self.none {
            timers.push(TimerQueue.Timer(due: slots.dwellDue[target], device: device, slot: Int32(target), kind: .dwell))
        }
    }

    mutating func startDwell(device: Int32, slot: Int, from time: Int64) {
        let due = time + Int64((slots.ownLoiteringDelay[slot] ?? settings.loiteringDelay) * 1e6)
        slots.dwellDue[slot] = due
        timers.push(TimerQueue.Timer(due: due, device: device, slot: Int32(slot), kind: .dwell))
    }

    /// Appends an event unless the device's app is in the background (whenInUse) when it is delivered: then it is
    /// only counted.
    ///
    /// With a delivery delay (``MonitorSettings/delivery``, a region's `notificationResponsiveness`) the event is
    /// stamped with the time the app receives it and carries `detectedAt`; a device's events are delivered in the
    /// order they were decided, so a delayed event holds back the device's later ones. The answers to a
    /// registration (`requestState`'s state, initial triggers) draw no delay (`isAnswer`), but are held back too; an
    /// event delivered with another (the `state` of a transition) draws that one's delay (`drawnAs`).
    mutating func emit(
        _ kind: EventKind, device: Int32, slot: Int, time: Timestamp, latitude: Double, longitude: Double,
        inside: Bool = false, isAnswer: Bool = false, drawnAs drawKind: EventKind? = nil, into events: inout [GeofenceEvent]
    ) {
        var event = GeofenceEvent(
            device: device, region: slots.regionID[slot], kind: kind, time: time, latitude: latitude, longitude: longitude,
            inside: inside)
        if settings.eventModel == .conditions {
            event.condition = kind == .exit || (kind == .state && !inside) ? .unsatisfied : .satisfied
        }
        let responsiveness = slots.ownResponsiveness.isEmpty ? 0 : slots.ownResponsiveness[slot] ?? 0
        if !settings.delivery.isInstant || responsiveness > 0 || !deliveredUntil.isEmpty {
            let row = Int(device / stride)
            if row >= deliveredUntil.count {
                deliveredUntil.append(contentsOf: repeatElement(Self.none, count: row + 1 - deliveredUntil.count))
            }
            let key = deliveryKey?(device, slots.regionID[slot]) ?? DeliveryDelay.key(device: device, region: slots.regionID[slot])
            let delay = isAnswer ? 0 : settings.delivery.microseconds(
                seed: seed, key: key, kind: drawKind ?? kind, decidedAt: time.microseconds, responsiveness: responsiveness)
            let delivered = max(time.microseconds + delay, deliveredUntil[row])
            if delivered > time.microseconds {
                delayedCount += 1
                if delivered > time.microseconds + delay { heldBackCount += 1 }
                deliveredUntil[row] = delivered
                event.detectedAt = time
                event.time = Timestamp(microseconds: delivered)
            }
        }
        if var schedule = schedules[device] {
            let inForeground = schedule.isForeground(at: event.time.microseconds)
            schedules[device] = schedule
            guard inForeground else {
                suppressedInBackground += 1
                return
            }
        }
        events.append(event)
    }
}
