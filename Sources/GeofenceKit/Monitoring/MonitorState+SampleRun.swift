/// Many samples in one call: what a pipeline's shard and the `evaluationLoop` benchmark hand the monitor, a batch of
/// samples as columns.
///
/// The same events, counters and state as ``MonitorState/evaluate(device:latitude:longitude:time:accuracy:into:)``
/// called on each sample in turn. Under the exact rules (no rich path, no visits) the samples of registered
/// devices, in order, run through one tight loop (``MonitorState/exactRun(devices:latitudes:longitudes:times:from:into:eventLimit:refresh:)``)
/// that holds the rows and the slots' records by pointer: a sample that stays in its device's disc then costs
/// its distance bound and the row's update, with none of the per-sample call's set-up. Devices choosing from a
/// catalog run through the same loop compiled a second time with their refresh check (``RefreshCheck``), which
/// stops it at a sample where the device chooses again; the call makes the choice and resumes. Without a
/// selection the loop is compiled with no check at all. Any other sample (a device's first, one out of order, or
/// every sample under the richer rules) takes the one-sample call.
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
        // Taken out once a batch: each registration below then calls it without retaining it.
        let regions = regionsOf
        var i = start
        while i < count && events.count < eventLimit {
            // Asked again after every registration and choice: a region that dwells, or a polygon monitored through
            // its enclosing circle, makes the table rich for every later sample, this batch's too.
            let exact = !isRich && visits == nil
            if exact && selection != nil {
                let run = evaluateChoosingRun(
                    devices: devices, latitudes: latitudes, longitudes: longitudes, times: times, from: i, into: &events,
                    eventLimit: eventLimit)
                i = run.next
                if run.choosesAgain {
                    // The run's last sample is one where its device chooses again, as the one-sample call would.
                    let k = i - 1
                    refreshSelection(
                        device: devices[k], row: row(of: devices[k]), latitude: latitudes[k], longitude: longitudes[k],
                        time: Timestamp(microseconds: times[k]), into: &events)
                    continue
                }
                guard i < count && events.count < eventLimit else { break }
            } else if exact {
                i = evaluateExactRun(
                    devices: devices, latitudes: latitudes, longitudes: longitudes, times: times, from: i, into: &events,
                    eventLimit: eventLimit)
                guard i < count && events.count < eventLimit else { break }
            }
            // The one-sample call, and again for each following sample of a device not registered yet (a batch of
            // first samples registers its devices back to back), where the exact run would stop at once.
            repeat {
                let accuracy = accuracies.map { Double($0[i]) }
                _ = evaluate(
                    device: devices[i], latitude: latitudes[i], longitude: longitudes[i],
                    time: Timestamp(microseconds: times[i]), accuracy: accuracy.flatMap { $0.isNaN ? nil : $0 },
                    regions: regions, into: &events)
                i += 1
            } while i < count && events.count < eventLimit && isUnregistered(devices[i])
        }
        return i
    }

    /// Whether `device` has sent no sample to this table yet (its first registers it).
    @inline(__always)
    private func isUnregistered(_ device: Int32) -> Bool {
        let row = row(of: device)
        // As the exact run tests it: a negative row is a huge unsigned one.
        return UInt(bitPattern: row) >= UInt(rows.count) || rows[row].time == Self.none
    }

    /// The exact path's loop without a selection (``exactRun(devices:latitudes:longitudes:times:from:into:eventLimit:refresh:)``
    /// with no refresh check); returns the index of the first sample it did not evaluate.
    ///
    /// Out of line (one call a batch): inlined into the batch call, among the values of its other paths, the loop
    /// read six of its own from the stack at every sample; here it keeps all but three in registers.
    @inline(never)
    mutating func evaluateExactRun(
        devices: UnsafeBufferPointer<Int32>, latitudes: UnsafeBufferPointer<Double>,
        longitudes: UnsafeBufferPointer<Double>, times: UnsafeBufferPointer<Int64>, from start: Int,
        into events: inout [GeofenceEvent], eventLimit: Int
    ) -> Int {
        exactRun(
            devices: devices, latitudes: latitudes, longitudes: longitudes, times: times, from: start, into: &events,
            eventLimit: eventLimit, refresh: NoRefresh()
        ).next
    }

    /// The exact path's loop for devices choosing from a catalog: it stops after a sample where the device is due to
    /// choose again (`choosesAgain`; the caller makes the choice).
    mutating func evaluateChoosingRun(
        devices: UnsafeBufferPointer<Int32>, latitudes: UnsafeBufferPointer<Double>,
        longitudes: UnsafeBufferPointer<Double>, times: UnsafeBufferPointer<Int64>, from start: Int,
        into events: inout [GeofenceEvent], eventLimit: Int
    ) -> (next: Int, choosesAgain: Bool) {
        // A copy for the run's checks (its two arrays retained once a run, not once a sample), released before the
        // choice writes to the selection.
        exactRun(
            devices: devices, latitudes: latitudes, longitudes: longitudes, times: times, from: start, into: &events,
            eventLimit: eventLimit, refresh: selection!.rule)
    }

    /// The exact path's loop: evaluates samples from `start` while each belongs to a registered device and is not
    /// older than its previous one, until the end, until `events` holds `eventLimit` events, or until `refresh`
    /// says a device is due to choose again; returns the index of the first sample it did not evaluate, and
    /// whether the one before it is such a sample (evaluated, its choice not made yet). Only under the exact
    /// rules, with no visits.
    ///
    /// Generic so that each caller gets its own copy: with ``NoRefresh`` the check folds away and a sample that
    /// stays in its disc costs what it did before selections took this loop.
    @inline(__always)
    mutating func exactRun<Refresh: RefreshCheck>(
        devices: UnsafeBufferPointer<Int32>, latitudes: UnsafeBufferPointer<Double>,
        longitudes: UnsafeBufferPointer<Double>, times: UnsafeBufferPointer<Int64>, from start: Int,
        into events: inout [GeofenceEvent], eventLimit: Int, refresh: Refresh
    ) -> (next: Int, choosesAgain: Bool) {
        // Compiled once per table shape: a table of one shard (the benchmarks', a single-core run's) then finds a
        // sample's row with no test and no division.
        if stride == 1 {
            return exactRun(
                devices: devices, latitudes: latitudes, longitudes: longitudes, times: times, from: start,
                into: &events, eventLimit: eventLimit, refresh: refresh, rowIndexing: UnitRows())
        }
        return exactRun(
            devices: devices, latitudes: latitudes, longitudes: longitudes, times: times, from: start, into: &events,
            eventLimit: eventLimit, refresh: refresh, rowIndexing: StridedRows(stride: Int(stride)))
    }

    /// ``exactRun(devices:latitudes:longitudes:times:from:into:eventLimit:refresh:)`` with the table's way of
    /// finding a device's row (``RowIndexing``).
    @inline(__always)
    mutating func exactRun<Refresh: RefreshCheck, Rows: RowIndexing>(
        devices: UnsafeBufferPointer<Int32>, latitudes: UnsafeBufferPointer<Double>,
        longitudes: UnsafeBufferPointer<Double>, times: UnsafeBufferPointer<Int64>, from start: Int,
        into events: inout [GeofenceEvent], eventLimit: Int, refresh: Refresh, rowIndexing: Rows
    ) -> (next: Int, choosesAgain: Bool) {
        var i = start
        var choosesAgain = false
        guard events.count < eventLimit else { return (i, false) }
        let firstEvent = events.count
        rows.withUnsafeMutableBufferPointer { rows in
            Self.withSlotTables(&slots, polygons) { tables in
                // The slots' tests leave their events' regions as slot indices, named after the loop.
                defer { Self.nameRegions(of: &events, from: firstEvent, regionID: tables.regionID) }
                while i < devices.count {
                    let device = devices[i]
                    let row = rowIndexing.row(of: device)
                    // One comparison for both bounds (a negative row is a huge unsigned one).
                    guard UInt(bitPattern: row) < UInt(rows.count) else { break }
                    let time = times[i]
                    // The device has sent a sample (its time is not `none`, Int64.min) no later than this one: one
                    // comparison for both, `none` wrapping round to the largest time.
                    guard rows[row].time &- 1 < time else { break }
                    let latitude = latitudes[i], longitude = longitudes[i]
                    rows[row].time = time
                    rows[row].latitude = latitude
                    rows[row].longitude = longitude
                    i &+= 1
                    let pathSquared = rows[row].clearance.pathSquared(latitude: latitude, longitude: longitude)
                    // Outside the disc no boundary crosses, test (the tests cap the distance as they convert it);
                    // inside it every containment is as it was (and the distance needs no cap: a disc is never
                    // wider than the bound's reach). NaN (no disc yet, or a NaN position) tests.
                    if !(pathSquared < Double(rows[row].clearance.radiusSquared)) {
                        Self.testSlots(
                            of: &rows[row], movedSquared: pathSquared, device: device,
                            latitude: latitude, longitude: longitude, time: Timestamp(microseconds: time),
                            tables: tables, into: &events)
                        // Only the slots' tests add events.
                        if events.count >= eventLimit {
                            choosesAgain = refresh.isDue(row: row, latitude: latitude, longitude: longitude, time: time)
                            break
                        }
                    }
                    if refresh.isDue(row: row, latitude: latitude, longitude: longitude, time: time) {
                        choosesAgain = true
                        break
                    }
                }
            }
        }
        evaluatedCount += i - start
        return (i, choosesAgain)
    }

    /// The row of a device in this table.
    @inline(__always)
    func row(of device: Int32) -> Int { stride == 1 ? Int(device) : Int(device / stride) }
}
