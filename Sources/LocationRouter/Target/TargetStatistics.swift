/// What driving a geofence service under test (`run --target URL --listen HOST:PORT`) showed: the `target`
/// object of the run report.
public struct TargetStatistics: Sendable, Equatable {
    /// Requests sent to the service, and those that failed (no answer, or not 2xx).
    public var requests = 0
    public var failedRequests = 0
    /// Samples in requests the service accepted.
    public var samplesSent = 0
    /// Events the listener received, and request bodies it refused with 400.
    public var eventsReceived = 0
    public var badRequests = 0
    /// The received events against the truth (event time − truth time as latency).
    public var score: EventScore
    /// Wall-clock milliseconds from sending the sample that caused a truth crossing to receiving its event,
    /// over matched events: `p50`, `p90`, `p95`, `p99`, `max` (`nil` when nothing matched).
    public var latencyMs: [(name: String, value: Double?)] = []

    public init(score: EventScore) {
        self.score = score
    }

    public static func == (lhs: TargetStatistics, rhs: TargetStatistics) -> Bool {
        lhs.requests == rhs.requests && lhs.failedRequests == rhs.failedRequests && lhs.samplesSent == rhs.samplesSent
            && lhs.eventsReceived == rhs.eventsReceived && lhs.badRequests == rhs.badRequests && lhs.score == rhs.score
            && lhs.latencyMs.map(\.name) == rhs.latencyMs.map(\.name) && lhs.latencyMs.map(\.value) == rhs.latencyMs.map(\.value)
    }

    static let countNames = ["requests", "failedRequests", "samplesSent", "eventsReceived", "badRequests"]
    static let latencyNames = ["p50", "p90", "p95", "p99", "max"]

    /// The value at a path under `target.`; `nil` when unknown or without value.
    func value(at path: String) -> Double? {
        if path.hasPrefix("score.") { return score.value(at: String(path.dropFirst("score.".count))) }
        if path.hasPrefix("latencyMs.") {
            let name = path.dropFirst("latencyMs.".count)
            return latencyMs.first { $0.name == name }?.value ?? nil
        }
        switch path {
        case "requests": return Double(requests)
        case "failedRequests": return Double(failedRequests)
        case "samplesSent": return Double(samplesSent)
        case "eventsReceived": return Double(eventsReceived)
        case "badRequests": return Double(badRequests)
        default: return nil
        }
    }

    /// `{"requests":…,"failedRequests":…,"samplesSent":…,"eventsReceived":…,"badRequests":…,"score":{…},"latencyMs":{…}}`.
    public var json: String {
        let latency = latencyMs.map { "\"\($0.name)\":\($0.value.map(EventScore.ratio) ?? "null")" }
        return "{\"requests\":\(requests),\"failedRequests\":\(failedRequests),\"samplesSent\":\(samplesSent),"
            + "\"eventsReceived\":\(eventsReceived),\"badRequests\":\(badRequests),\"score\":\(score.json),"
            + "\"latencyMs\":{\(latency.joined(separator: ","))}}"
    }
}
