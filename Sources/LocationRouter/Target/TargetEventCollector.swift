import GeofenceKit
import Synchronization

/// Receives a service's events on the listener (`POST /events`, NDJSON or a JSON array) and keeps them, with the
/// moment each arrived, for scoring. A body that is not valid events is answered 400 and counted.
public final class TargetEventCollector: Sendable {
    private struct State {
        var events: [ScoredEvent] = []
        var arrivals: [UInt64] = []
        var received = 0
        var ignored = 0
        var badRequests = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The listener's handler: 204 for accepted events, 400 for a bad body, 404 / 405 elsewhere.
    public func handle(method: String, path: String, body: [UInt8]) -> Int {
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        guard route == "/events" else { return 404 }
        guard method == "POST" else { return 405 }
        let arrived = MonotonicClock.now()
        guard let contents = try? EventFileReader.read(body) else {
            state.withLock { $0.badRequests += 1 }
            return 400
        }
        state.withLock { state in
            state.events += contents.events
            state.arrivals += repeatElement(arrived, count: contents.events.count)
            state.received += contents.events.count + contents.ignored
            state.ignored += contents.ignored
        }
        return 204
    }

    /// Events received so far (of every kind), and bodies refused.
    public var eventsReceived: Int { state.withLock { $0.received } }
    public var badRequests: Int { state.withLock { $0.badRequests } }

    /// The received events scored against `truth`, with latencies from `log`'s send moments.
    public func statistics(truth: [ScoredEvent], log: TargetSendLog, tolerance: Double) -> TargetStatistics {
        let (events, arrivals, received, ignored, bad) = state.withLock {
            ($0.events, $0.arrivals, $0.received, $0.ignored, $0.badRequests)
        }
        let (score, pairs) = EventMatcher(tolerance: tolerance).match(truth: truth, events: events, ignored: ignored)
        var latencies: [Double] = []
        for pair in pairs {
            let crossing = truth[pair.truth]
            guard let sent = log.sentMoment(device: crossing.device, atOrAfter: crossing.time) else { continue }
            let arrival = arrivals[pair.event]
            latencies.append(arrival >= sent ? Double(arrival - sent) / 1e6 : 0)
        }
        latencies.sort()
        var statistics = TargetStatistics(score: score)
        statistics.requests = log.requests
        statistics.failedRequests = log.failedRequests
        statistics.samplesSent = log.samplesSent
        statistics.eventsReceived = received
        statistics.badRequests = bad
        statistics.latencyMs = [("p50", 0.5), ("p90", 0.9), ("p95", 0.95), ("p99", 0.99), ("max", 1.0)].map { name, fraction in
            guard !latencies.isEmpty else { return (name, nil) }
            let rank = max(1, Int((Double(latencies.count) * fraction).rounded(.up)))
            return (name, latencies[min(rank, latencies.count) - 1])
        }
        return statistics
    }
}
