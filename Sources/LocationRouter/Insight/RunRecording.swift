import GeofenceKit

/// What a run recorded for its page (`--html`): time series, the latency distribution and the map. It is
/// written into the JSON report under `timeline`, `latencyHistogram` and `map`, so a saved report renders too.
public struct RunRecording: Sendable {
    /// Per wall-clock second since the run's start (nanosecond positions).
    public var wallClock: TimeSeries
    /// Per simulated minute (positions are sample times in microseconds).
    public var simulated: TimeSeries
    public var latency: CoarseLatencyHistogram
    public var map: RunMap

    public init(wallClock: TimeSeries, simulated: TimeSeries, latency: CoarseLatencyHistogram, map: RunMap) {
        self.wallClock = wallClock
        self.simulated = simulated
        self.latency = latency
        self.map = map
    }
}
