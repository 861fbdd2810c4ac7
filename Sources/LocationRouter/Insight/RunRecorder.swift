import GeofenceKit

/// What one stage records for the report's page while a run goes on: counts per wall-clock second and per
/// simulated minute, and (in the monitors) the tracks of sampled devices. Owned by one actor, fed once per
/// batch; its size is bounded whatever the run's length.
public struct RunRecorder: Sendable {
    /// The run's start (``MonotonicClock`` nanoseconds): wall-clock positions are measured from it.
    public let started: UInt64
    public var wallClock = TimeSeries(width: 1_000_000_000)
    public var simulated = TimeSeries(width: 60_000_000)
    public var tracks: TrackSampler

    public init(started: UInt64, seed: UInt64, sampledDevices: Int = 200) {
        self.started = started
        tracks = TrackSampler(seed: seed, capacity: sampledDevices)
    }

    /// Nanoseconds since the start of the run.
    @inline(__always)
    func wallPosition(_ now: UInt64) -> Int64 { Int64(bitPattern: now &- min(started, now)) }

    /// A monitor's batch: its updates by wall second and by simulated minute, and the sampled devices' tracks.
    public mutating func recordEvaluated(_ batch: LocationBatch) {
        guard !batch.isEmpty else { return }
        wallClock.addUpdates(batch.count, at: wallPosition(MonotonicClock.now()))
        addSimulatedUpdates(batch.times)
        tracks.record(batch)
    }

    /// Events a monitor sends on: the sampled devices' first events and their regions' firings.
    public mutating func recordEvents(_ events: [GeofenceEvent]) {
        if !events.isEmpty { tracks.record(events) }
    }

    /// Sample times of a batch by simulated minute, without a division per sample: a batch spans seconds, so
    /// it falls into one or two buckets (any other spread takes the slow path).
    private mutating func addSimulatedUpdates(_ times: [Int64]) {
        var low = Int64.max
        var high = Int64.min
        for time in times {
            low = min(low, time)
            high = max(high, time)
        }
        let first = simulated.key(of: low)
        let last = simulated.key(of: high)
        if first == last {
            simulated.addUpdates(times.count, at: low)
        } else if last == first + 1 {
            let boundary = last * simulated.width
            var before = 0
            for time in times where time < boundary { before += 1 }
            simulated.addUpdates(before, at: low)
            simulated.addUpdates(times.count - before, at: high)
        } else {
            for time in times { simulated.addUpdates(1, at: time) }
        }
    }

    /// The dispatcher's batch: events by kind, by wall second and by simulated minute.
    public mutating func recordDispatched(_ events: [GeofenceEvent], at now: UInt64) {
        guard !events.isEmpty else { return }
        wallClock.update(at: wallPosition(now)) { bucket in
            for event in events { bucket.events[event.kind.rawValue] += 1 }
        }
        var index = 0
        while index < events.count {
            // Events of a batch are close in time: one bucket update per run of events in the same minute.
            let key = simulated.key(of: events[index].time.microseconds)
            var end = index + 1
            while end < events.count, simulated.key(of: events[end].time.microseconds) == key { end += 1 }
            simulated.update(at: events[index].time.microseconds) { bucket in
                for event in events[index..<end] { bucket.events[event.kind.rawValue] += 1 }
            }
            index = end
        }
    }

    /// The latency of `times` events handed to the sink `now`, at the wall second and at the simulated minute of
    /// their batch's first event.
    public mutating func recordLatency(_ latency: UInt64, times: UInt64, at now: UInt64, sampleTime: Int64?) {
        guard times > 0 else { return }
        wallClock.update(at: wallPosition(now)) { $0.latency.record(latency, times: times) }
        if let sampleTime { simulated.update(at: sampleTime) { $0.latency.record(latency, times: times) } }
    }

    /// Back-pressure waits counted since the last call, at the current wall second.
    public mutating func recordWaits(_ count: Int, at now: UInt64) {
        guard count > 0 else { return }
        wallClock.update(at: wallPosition(now)) { $0.backPressureWaits += count }
    }

    /// Adds what another stage recorded.
    public mutating func merge(_ other: RunRecorder) {
        wallClock.merge(other.wallClock)
        simulated.merge(other.simulated)
        tracks.merge(other.tracks)
    }
}
