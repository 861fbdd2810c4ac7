import Foundation
import GeofenceKit
import Synchronization
import GeofenceFormats

/// A small geofence service built on GeofenceKit (`location-router serve`): it takes samples as `run --target`
/// sends them and posts the events they cause to a webhook — the other half of the load-test loop, for trying it
/// and for tests.
///
/// Each request body is NDJSON samples (`device`, `lat`, `lon`, `time`, `accuracy`); they are evaluated in order by
/// one ``MonitorState`` with the given settings (the `exact` profile's by default), and answered 204 (400 when no
/// line of the body is a valid sample). On purpose, for testing a scorer, a seeded share `drop` of the events is
/// never sent, and a share `delayShare` is held back `delay` seconds. Events go to the webhook as NDJSON
/// (`application/x-ndjson`), every 10 ms at most; a failed post is retried until ``stop()``.
public final class ReferenceService: Sendable {
    /// What the service did.
    public struct Statistics: Sendable, Equatable {
        public var requests = 0
        public var samples = 0
        public var badLines = 0
        public var events = 0
        public var dropped = 0
        public var delayed = 0
        public var delivered = 0
        public var failedPosts = 0
    }

    private struct State {
        var monitor: MonitorState
        var devices: [String: Int32] = [:]
        var rng: SplitMix64
        var pending: [(due: UInt64, event: GeofenceEvent)] = []
        var statistics = Statistics()
        var stopped = false
    }

    private let state: Mutex<State>
    private let registry = DeviceRegistry()
    private let regionNames: RegionNames
    private let poster: HTTPPoster
    private let drop: Double
    private let delay: Double
    private let delayShare: Double

    public convenience init(
        regions: [Region], settings: MonitorSettings = .exact, webhook: URL, drop: Double = 0, delay: Double = 0,
        delayShare: Double = 1, seed: UInt64 = 42
    ) {
        self.init(
            catalog: RegionCatalog(regions: regions), settings: settings, webhook: webhook, drop: drop, delay: delay,
            delayShare: delayShare, seed: seed)
    }

    /// The service over regions already filed for the devices (as the CLI decodes a regions file).
    public init(
        catalog: RegionCatalog, settings: MonitorSettings = .exact, webhook: URL, drop: Double = 0, delay: Double = 0,
        delayShare: Double = 1, seed: UInt64 = 42
    ) {
        let registry = registry
        let monitor = MonitorState(settings: settings, seed: seed, regions: { catalog.regions(forDevice: registry.name(of: $0)) })
        state = Mutex(State(monitor: monitor, rng: SplitMix64(seed: seed, stream: 0, purpose: .referenceService)))
        regionNames = .listed(catalog.identifiers)
        poster = HTTPPoster(url: webhook, connections: 1)
        self.drop = drop
        self.delay = delay
        self.delayShare = delayShare
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The listener's handler: samples in, 204 out.
    public func handle(method: String, path: String, body: [UInt8]) -> Int {
        guard method == "POST" else { return 405 }
        var splitter = LineSplitter()
        let now = MonotonicClock.now()
        return state.withLock { state in
            state.statistics.requests += 1
            var valid = 0
            var events: [GeofenceEvent] = []
            for piece in splitter.lines(in: body) + splitter.finish() {
                guard case .line(let line, let number) = piece, !SampleDecoder.isBlank(line) else {
                    if case .tooLong = piece { state.statistics.badLines += 1 }
                    continue
                }
                guard let sample = try? SampleDecoder.decodeNDJSON(line: line, lineNumber: number) else {
                    state.statistics.badLines += 1
                    continue
                }
                valid += 1
                let device = state.devices[sample.device] ?? registry.append(sample.device)
                state.devices[sample.device] = device
                _ = state.monitor.evaluate(
                    device: device, latitude: sample.coordinate.latitude, longitude: sample.coordinate.longitude,
                    time: sample.time, accuracy: sample.accuracy, into: &events)
            }
            state.statistics.samples += valid
            for event in events {
                state.statistics.events += 1
                if drop > 0 && state.rng.unit() < drop {
                    state.statistics.dropped += 1
                    continue
                }
                var due = now
                if delay > 0 && state.rng.unit() < delayShare {
                    state.statistics.delayed += 1
                    due += UInt64(delay * 1e9)
                }
                state.pending.append((due, event))
            }
            return valid > 0 || body.allSatisfy({ $0 == 10 || $0 == 13 || $0 == 32 }) ? 204 : 400
        }
    }

    /// Posts due events until ``stop()`` is called and every event held back has been posted (or, after `stop`,
    /// failed once).
    public func run() async {
        var encoder = EventEncoder(deviceNames: .registry(registry), regionNames: regionNames)
        while true {
            let now = MonotonicClock.now()
            let (due, stopped, waiting) = state.withLock { state in
                let due = state.pending.filter { $0.due <= now }
                state.pending.removeAll { $0.due <= now }
                return (due, state.stopped, state.pending.count)
            }
            if !due.isEmpty {
                var body: [UInt8] = []
                for item in due { encoder.encode(item.event, into: &body) }
                let delivered = await poster.post(body)
                state.withLock { state in
                    if delivered {
                        state.statistics.delivered += due.count
                    } else {
                        state.statistics.failedPosts += 1
                        if !state.stopped { state.pending += due }
                    }
                }
            }
            if stopped && waiting == 0 && due.isEmpty { break }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        poster.invalidate()
    }

    /// Asks ``run()`` to post what it holds (when due) and return.
    public func stop() {
        state.withLock { $0.stopped = true }
    }
}
