import GeofenceKit

/// How a run collects what its page shows: the stages record as they go, and the pieces are merged at the end.
extension Simulation {
    /// Back-pressure waits per wall-clock second: the channels' wait counts, read once a second until the task is
    /// cancelled (a child task of the run).
    static func sampleWaits(of channels: [ChannelStatistics], started: UInt64) async -> RunRecorder {
        var recorder = RunRecorder(started: started, seed: 0, sampledDevices: 0)
        var seen = 0
        func read() {
            let total = channels.reduce(0) { $0 + $1.waitCount }
            recorder.recordWaits(total - seen, at: MonotonicClock.now())
            seen = total
        }
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 1_000_000_000)
            read()
        }
        read()
        return recorder
    }

    /// The page's data of a finished run.
    static func recording(
        shards: [ShardSummary], dispatch: DispatchSummary, waits: RunRecorder, wiring: Wiring,
        configuration: SimulationConfiguration, devices: Int
    ) -> RunRecording {
        var merged = waits
        for recorder in shards.compactMap(\.recorder) + [dispatch.recorder].compactMap({ $0 }) {
            merged.merge(recorder)
        }
        let map = RunMap(
            sampler: merged.tracks, wiring: wiring, regions: configuration.regions,
            fires: dispatch.regionFires.isEmpty ? nil : dispatch.regionFires, devices: devices, seed: configuration.seed)
        return RunRecording(
            wallClock: merged.wallClock, simulated: merged.simulated, latency: CoarseLatencyHistogram(coarsening: dispatch.latency),
            map: map)
    }
}

extension Wiring {
    /// Region indices whose `enter` / `exit` / `dwell` events the dispatcher counts for the map: a region
    /// file's, when it has at most a million (4 bytes each). Generated regions are counted by the monitors, for
    /// the sampled devices only: a table over every device's regions would cost a cache miss per event.
    var regionFireSlots: Int {
        guard case .listed(let names) = regionNames, names.count <= 1_000_000 else { return 0 }
        return names.count
    }
}
