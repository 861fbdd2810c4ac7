import Foundation
import GeofenceKit
import Synchronization

/// Sends a run's samples to a geofence service under test: `POST` NDJSON batches, in order per device.
///
/// Samples go out as the source produced them, paced like the run (`--pace`). Devices are spread over `lanes`
/// lanes by a hash of their name; each lane has at most one request in flight, so at most `lanes` requests are
/// in flight and never two that carry samples of the same device: the service sees each device's samples in
/// order. A lane's batch goes out when it holds `batchSize` samples, when its oldest sample has waited
/// ``flushInterval``, or before the pacing waits for the wall clock. A request that fails (no answer, or not 2xx)
/// is retried twice, 100 ms then 200 ms later; its samples then count as not sent.
public struct TargetDriver: Sendable {
    public var poster: HTTPPoster
    public var batchSize: Int
    public var lanes: Int
    public var pace: Pace
    public var stop: StopSignal?
    /// How long a sample may wait in a lane's batch (100 ms).
    public static let flushInterval: UInt64 = 100_000_000

    public init(poster: HTTPPoster, batchSize: Int = 500, lanes: Int = 4, pace: Pace = .max, stop: StopSignal? = nil) {
        self.poster = poster
        self.batchSize = max(1, batchSize)
        self.lanes = max(1, lanes)
        self.pace = pace
        self.stop = stop
    }

    /// Sends every sample (until `stop` is requested) and returns what was sent, and when.
    public func send(_ samples: [TargetSample]) async -> TargetSendLog {
        let log = TargetSendLog()
        // Two batches per lane in flight: the one being posted and the next, filling meanwhile.
        let channels = (0..<lanes).map { _ in BoundedChannel<[TargetSample]>(capacity: 2) }
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<lanes {
                group.addTask { [poster] in
                    do {
                        for try await batch in channels[lane] { await Self.post(batch, with: poster, log: log) }
                    } catch {
                        return  // cancelled: the run is over
                    }
                }
            }
            var buffers = [[TargetSample]](repeating: [], count: lanes)
            var started = [UInt64](repeating: 0, count: lanes)
            var pacer = Pacer(pace: pace)
            func flush(_ lane: Int) async {
                guard !buffers[lane].isEmpty else { return }
                do { try await channels[lane].send(buffers[lane]) } catch { return }
                buffers[lane] = []
            }
            var previousTime = Int64.min
            for sample in samples {
                if stop?.isRequested == true { break }
                let time = sample.time.microseconds
                if pace != .max && time > previousTime {
                    for lane in 0..<lanes { await flush(lane) }
                    try? await pacer.wait(until: time, stop: stop)
                }
                previousTime = max(previousTime, time)
                let lane = Self.lane(of: sample.device, lanes: lanes)
                if buffers[lane].isEmpty { started[lane] = MonotonicClock.now() }
                buffers[lane].append(sample)
                if buffers[lane].count >= batchSize || MonotonicClock.now() &- started[lane] >= Self.flushInterval {
                    await flush(lane)
                }
            }
            for lane in 0..<lanes {
                await flush(lane)
                channels[lane].finish()
            }
        }
        return log
    }

    private static func post(_ batch: [TargetSample], with poster: HTTPPoster, log: TargetSendLog) async {
        var body: [UInt8] = []
        body.reserveCapacity(batch.count * 100)
        for sample in batch { sample.append(to: &body) }
        for attempt in 0..<3 {
            if attempt > 0 { try? await Task.sleep(nanoseconds: UInt64(attempt) * 100_000_000) }
            let sent = MonotonicClock.now()
            let accepted = await poster.post(body)
            log.record(batch, sentAt: sent, accepted: accepted)
            if accepted { return }
        }
    }

    /// A stable lane for a device: FNV-1a of its name.
    static func lane(of device: String, lanes: Int) -> Int {
        Int(StableHash.fnv1a(device) % UInt64(lanes))
    }
}

/// What a ``TargetDriver`` sent: request counts, and when each device's samples went out.
public final class TargetSendLog: Sendable {
    private struct State {
        var requests = 0
        var failedRequests = 0
        var samplesSent = 0
        /// Per device: sample times and the monotonic moment their request was sent, in time order.
        var sent: [String: [(time: Int64, at: UInt64)]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    func record(_ batch: [TargetSample], sentAt: UInt64, accepted: Bool) {
        state.withLock { state in
            state.requests += 1
            guard accepted else {
                state.failedRequests += 1
                return
            }
            state.samplesSent += batch.count
            for sample in batch { state.sent[sample.device, default: []].append((sample.time.microseconds, sentAt)) }
        }
    }

    public var requests: Int { state.withLock { $0.requests } }
    public var failedRequests: Int { state.withLock { $0.failedRequests } }
    public var samplesSent: Int { state.withLock { $0.samplesSent } }

    /// When the first sample of `device` at or after `time` was sent: the sample that made a crossing visible.
    public func sentMoment(device: String, atOrAfter time: Timestamp) -> UInt64? {
        state.withLock { state in
            guard let list = state.sent[device] else { return nil }
            var low = 0
            var high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle].time < time.microseconds { low = middle + 1 } else { high = middle }
            }
            return low < list.count ? list[low].at : nil
        }
    }
}
