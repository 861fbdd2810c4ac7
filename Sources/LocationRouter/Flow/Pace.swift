/// How fast simulated time runs against the wall clock.
public enum Pace: Sendable, Equatable, CustomStringConvertible {
    /// As fast as the pipeline goes.
    case max
    /// `factor` simulated seconds per wall-clock second (1 = real time).
    case factor(Double)

    public var description: String {
        switch self {
        case .max: "max"
        case .factor(1): "realtime"
        case .factor(let factor): "\(factor)"
        }
    }
}

/// Holds a producer back until the clock catches up with simulated time, sample by sample.
///
/// The first sample sets the origin: simulated time `t` is due at clock time `origin.wall + (t − origin.t) / factor`.
struct Pacer: Sendable {
    private let pace: Pace
    private let clock: any RunClock
    private var origin: (wall: UInt64, simulated: Int64)?

    init(pace: Pace, clock: any RunClock = .continuous) {
        self.pace = pace
        self.clock = clock
    }

    /// The clock's time in nanoseconds.
    private var nanoseconds: UInt64 {
        let (seconds, attoseconds) = clock.now.components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds / 1_000_000_000))
    }

    var isPaced: Bool { pace != .max }

    /// Nanoseconds until `time` (microseconds) is due; 0 when it is due now or the run is not paced. The first
    /// call sets the origin.
    mutating func delay(until time: Int64) -> UInt64 {
        guard case .factor(let factor) = pace else { return 0 }
        let now = nanoseconds
        guard let origin else {
            self.origin = (now, time)
            return 0
        }
        let target = origin.wall &+ UInt64(max(0, Double(time - origin.simulated) * 1_000 / factor))
        return target > now ? target - now : 0
    }

    /// The latest simulated time (microseconds) that is due now: `Int64.max` when the run is not paced, `nil`
    /// before the origin is set.
    func simulatedNow() -> Int64? {
        guard case .factor(let factor) = pace else { return .max }
        guard let origin else { return nil }
        let elapsed = Double(nanoseconds &- origin.wall) / 1_000 * factor
        return origin.simulated &+ Int64(elapsed)
    }

    /// Sleeps until the clock's moment that corresponds to `time`; the first call sets the origin. Wakes up
    /// early, in at most 50 ms of the clock, when `stop` is requested.
    mutating func wait(until time: Int64, stop: StopSignal? = nil) async throws {
        while stop?.isRequested != true {
            let delay = delay(until: time)
            guard delay > 0 else { return }
            try await clock.sleep(for: .nanoseconds(min(delay, 50_000_000)))
        }
    }
}
