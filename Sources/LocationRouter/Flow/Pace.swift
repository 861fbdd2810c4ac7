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

/// Holds a producer back until the wall clock catches up with simulated time.
struct Pacer: Sendable {
    private let pace: Pace
    private var origin: (wall: UInt64, simulated: Int64)?

    init(pace: Pace) { self.pace = pace }

    /// Sleeps until the wall-clock moment that corresponds to `time`; the first call sets the origin. Wakes up
    /// early, in at most 50 ms, when `stop` is requested.
    mutating func wait(until time: Int64, stop: StopSignal? = nil) async throws {
        guard case .factor(let factor) = pace else { return }
        guard let origin else {
            self.origin = (MonotonicClock.now(), time)
            return
        }
        let target = origin.wall &+ UInt64(max(0, Double(time - origin.simulated) * 1_000 / factor))
        while stop?.isRequested != true {
            let now = MonotonicClock.now()
            guard target > now else { return }
            try await Task.sleep(nanoseconds: min(target - now, 50_000_000))
        }
    }
}
