import GeofenceKit

/// The playback of one shard's devices: fills ``LocationBatch``es in rounds of one interval of simulated time.
///
/// Each round, every device still playing contributes its samples that fall before the round's end, so batches
/// are roughly in time order across devices (what pacing needs) and exactly in time order per device.
public struct PlaybackLane: Sendable {
    private let devices: [Int32]
    private var players: [TracePlayer]
    private var pending: [(latitude: Double, longitude: Double, time: Timestamp)?]
    private var active: [Int]
    private var cursor = 0
    private var roundEnd: Int64
    private let roundLength: Int64
    private var filter: LocationFilter?
    /// The latest sample time handed out, for the final watermark.
    private var latest: Int64 = .min
    /// The last sample time of the whole run: the final watermark.
    private let endTime: Int64
    /// Samples the source filters suppressed so far.
    public private(set) var filteredCount = 0

    public init(plan: PlaybackPlan, first: Int, stride: Int, filter: LocationFilterSettings = .init()) {
        devices = Swift.stride(from: first, to: plan.configuration.devices, by: stride).map { Int32($0) }
        players = devices.map { plan.player(ofDevice: $0) }
        var firstSamples: [(latitude: Double, longitude: Double, time: Timestamp)?] = []
        for i in players.indices { firstSamples.append(players[i].next()) }
        pending = firstSamples
        active = firstSamples.indices.filter { firstSamples[$0] != nil }
        roundLength = max(1, Int64(plan.configuration.interval * 1e6))
        let earliest = firstSamples.compactMap { $0?.time.microseconds }.min() ?? 0
        roundEnd = earliest + roundLength
        endTime = plan.endTime
        self.filter = filter.isActive ? LocationFilter(settings: filter, seed: plan.seed, stride: stride) : nil
    }

    public var isFinished: Bool { active.isEmpty }

    /// The time of the round being filled (for pacing).
    public var nextTime: Timestamp { Timestamp(microseconds: roundEnd - roundLength) }

    /// Appends up to `capacity - batch.count` samples, none later than `limit`; returns `false` once every
    /// device's trace is over.
    public mutating func fill(_ batch: inout LocationBatch, capacity: Int, upTo limit: Int64 = .max) -> Bool {
        while !active.isEmpty && batch.count < capacity && nextTime.microseconds <= limit {
            let i = active[cursor]
            while batch.count < capacity, let sample = pending[i], sample.time.microseconds < roundEnd,
                sample.time.microseconds <= limit
            {
                if !batch.append(
                    device: devices[i], latitude: sample.latitude, longitude: sample.longitude, time: sample.time,
                    through: &filter)
                {
                    filteredCount += 1
                }
                latest = max(latest, sample.time.microseconds)
                pending[i] = players[i].next()
            }
            guard pending[i].map({ $0.time.microseconds >= roundEnd }) ?? true else {
                break  // full, or not due yet, in the middle of this device's round: continue here next time
            }
            cursor += 1
            if cursor == active.count { endRound() }
        }
        // Every pending sample is at or after the current round's start; at the end, time stops at the run's last
        // sample, whichever lane played it.
        batch.watermark = active.isEmpty ? max(latest, endTime) : roundEnd - roundLength
        return !active.isEmpty || batch.count > 0
    }

    /// Drops the devices whose trace is over and moves to the next round that has samples.
    private mutating func endRound() {
        let samples = pending
        active.removeAll { samples[$0] == nil }
        cursor = 0
        // Every pending sample is at or after the old round's end; the next round starts at the earliest one.
        if let next = active.lazy.compactMap({ samples[$0]?.time.microseconds }).min() {
            roundEnd = next + roundLength
        }
    }
}
