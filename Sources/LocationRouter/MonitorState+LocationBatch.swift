import GeofenceKit

extension MonitorState {
    /// Evaluates `batch`'s samples from `start` until its end or until `events` holds `eventLimit` events; returns
    /// where to go on. The unlimited evaluation, when there is one, sees the samples the monitor took.
    ///
    /// One call per batch: a ``RegionMonitor``'s state is an actor's stored property, whose every mutation is
    /// checked for exclusive access at run time, so the loop over the samples runs here, inside one access.
    mutating func evaluate(
        _ batch: LocationBatch, from start: Int, into events: inout [GeofenceEvent], eventLimit: Int,
        coverage: inout CoverageTracker?
    ) -> Int {
        guard coverage != nil else {
            // The monitor's own loop over the columns (the exact path's samples without a call each).
            return batch.devices.withUnsafeBufferPointer { devices in
                batch.latitudes.withUnsafeBufferPointer { latitudes in
                    batch.longitudes.withUnsafeBufferPointer { longitudes in
                        batch.times.withUnsafeBufferPointer { times in
                            batch.accuracies.withUnsafeBufferPointer { accuracies in
                                evaluate(
                                    devices: devices, latitudes: latitudes, longitudes: longitudes, times: times,
                                    accuracies: accuracies, from: start, into: &events, eventLimit: eventLimit)
                            }
                        }
                    }
                }
            }
        }
        var i = start
        while i < batch.count && events.count < eventLimit {
            let accuracy = batch.accuracies[i]
            let accepted = evaluate(
                device: batch.devices[i], latitude: batch.latitudes[i], longitude: batch.longitudes[i],
                time: Timestamp(microseconds: batch.times[i]), accuracy: accuracy.isNaN ? nil : Double(accuracy),
                into: &events)
            if accepted {
                coverage?.observe(
                    device: batch.devices[i], latitude: batch.latitudes[i], longitude: batch.longitudes[i],
                    time: Timestamp(microseconds: batch.times[i]))
            }
            i += 1
        }
        return i
    }
}
