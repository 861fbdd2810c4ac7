/// Many samples in one call: what a pipeline's shard and the `evaluationLoop` benchmark hand the monitor, a batch of
/// samples as columns.
///
/// The same events, counters and state as ``MonitorState/evaluate(device:latitude:longitude:time:accuracy:into:)``
/// called on each sample in turn. Under the exact rules (no rich path, no catalog selection, no visits) the
/// samples of registered devices, in order, run through one tight loop (``MonitorState/evaluateExactRun(devices:latitudes:longitudes:times:from:into:eventLimit:)``)
/// that holds the rows and the slots' records by pointer: a sample that stays in its device's disc then costs
/// its distance bound and the row's update, with none of the per-sample call's set-up. Any other sample (a
/// device's first, one out of order, or every sample under the richer rules) takes the one-sample call.
extension MonitorState {
    /// Evaluates the samples `start...` of the columns (one element per sample; `accuracies`, where given, in
    /// metres with NaN for none) in order, until the end or until `events` holds `eventLimit` events; returns
    /// where it stopped (the columns' count at the end).
    public mutating func evaluate(
        devices: UnsafeBufferPointer<Int32>, latitudes: UnsafeBufferPointer<Double>,
        longitudes: UnsafeBufferPointer<Double>, times: UnsafeBufferPointer<Int64>,
        accuracies: UnsafeBufferPointer<Float>? = nil, from start: Int = 0, into events: inout [GeofenceEvent],
        eventLimit: Int = .max
    ) -> Int {
        let count = devices.count
        precondition(
            latitudes.count == count && longitudes.count == count && times.count == count
                && (accuracies?.count ?? count) == count, "the columns differ in length")
        let exact = !isRich && selection == nil && visits == nil
        var i = start
        while i < count && events.count < eventLimit {
            if exact {
                i = evaluateExactRun(
                    devices: devices, latitudes: latitudes, longitudes: longitudes, times: times, from: i, into: &events,
                    eventLimit: eventLimit)
                guard i < count && events.count < eventLimit else { break }
            }
            let accuracy = accuracies.map { Double($0[i]) }
            _ = evaluate(
                device: devices[i], latitude: latitudes[i], longitude: longitudes[i],
                time: Timestamp(microseconds: times[i]), accuracy: accuracy.flatMap { $0.isNaN ? nil : $0 },
                into: &events)
            i += 1
        }
        return i
    }

    /// The exact path's loop: evaluates samples from `start` while each belongs to a registered device and is not
    /// older than its previous one, until the end or until `events` holds `eventLimit` events; returns the index
    /// of the first sample it did not evaluate. Only under the exact rules, with no selection and no visits.
    mutating func evaluateExactRun(
        devices: UnsafeBufferPointer<Int32>, latitudes: UnsafeBufferPointer<Double>,
        longitudes: UnsafeBufferPointer<Double>, times: UnsafeBufferPointer<Int64>, from start: Int,
        into events: inout [GeofenceEvent], eventLimit: Int
    ) -> Int {
        let stride = Int(self.stride)
        var i = start
        guard events.count < eventLimit else { return i }
        rows.withUnsafeMutableBufferPointer { rows in
            Self.withSlotTables(&slots, polygons) { tables in
                while i < devices.count {
                    let device = devices[i]
                    let row = stride == 1 ? Int(device) : Int(device) / stride
                    // One comparison for both bounds (a negative row is a huge unsigned one).
                    guard UInt(bitPattern: row) < UInt(rows.count) else { break }
                    let time = times[i]
                    let previous = rows[row].time
                    guard previous != Self.none && time >= previous else { break }
                    let latitude = latitudes[i], longitude = longitudes[i]
                    rows[row].time = time
                    rows[row].latitude = latitude
                    rows[row].longitude = longitude
                    i += 1
                    let movedSquared = rows[row].clearance.movedSquared(latitude: latitude, longitude: longitude)
                    // Still inside the disc no boundary crosses: every containment is as it was.
                    if movedSquared < Double(rows[row].clearance.radiusSquared) { continue }
                    Self.testSlots(
                        of: &rows[row], movedSquared: movedSquared, device: device, latitude: latitude,
                        longitude: longitude, time: Timestamp(microseconds: time), tables: tables, into: &events)
                    // Only the slots' tests add events.
                    if events.count >= eventLimit { break }
                }
            }
        }
        evaluatedCount += i - start
        return i
    }
}
