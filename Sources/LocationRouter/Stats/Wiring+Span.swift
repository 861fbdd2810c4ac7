import GeofenceKit

extension Wiring {
    /// The sample times the run will cover, when the source knows them in advance (random walk, GPX files and
    /// routes; not a stream): for a progress bar's percentage and time left. Playback's end is an upper bound
    /// (the last-started device's time jitter is not drawn).
    var simulatedSpan: (start: Timestamp, end: Timestamp)? {
        switch source {
        case .randomWalk(let plan):
            let walk = plan.configuration
            return (walk.start, walk.start.adding(seconds: Double(walk.samplesPerDevice - 1) * walk.interval))
        case .playback(let plan):
            let playback = plan.configuration
            guard !plan.timelines.isEmpty, playback.devices > 0 else { return nil }
            let longest = plan.timelines.map(\.duration).max() ?? 0
            let lastOrdinal = Double((playback.devices - 1) / plan.timelines.count)
            let latestStart = lastOrdinal * playback.stagger + playback.timeJitter
            return (playback.start, playback.start.adding(seconds: latestStart + longest))
        default:
            return nil
        }
    }
}
