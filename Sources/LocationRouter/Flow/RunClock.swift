/// The time a run waits on: pacing, webhook backoff, linger and grace period, and snapshot intervals.
///
/// A run reads the time and sleeps only through this protocol, so that tests can drive it with a manual clock
/// (a clock that moves only when told to) instead of sleeping and polling. Time is a ``Swift/Duration`` since
/// the clock's own fixed origin; it never goes backwards. Measurements (latencies, wall time in the report)
/// stay on ``MonotonicClock``: they describe the machine, not the schedule.
public protocol RunClock: Sendable {
    /// The time since the clock's origin.
    var now: Duration { get }

    /// Suspends until ``now`` reaches `deadline`; returns at once when it has.
    /// - Throws: `CancellationError` if the task is cancelled first.
    func sleep(until deadline: Duration) async throws
}

extension RunClock {
    /// Suspends for `duration` from ``now``.
    /// - Throws: `CancellationError` if the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }

    /// Suspends for `seconds` (negative is 0; capped at a day, so any value converts).
    /// - Returns: `false` if the task was cancelled first.
    func sleep(seconds: Double) async -> Bool {
        let clamped = seconds.isFinite ? min(max(0, seconds), 86_400) : 86_400
        do {
            try await sleep(for: .nanoseconds(Int64(clamped * 1e9)))
            return true
        } catch {
            return false
        }
    }
}

/// The real clock: ``MonotonicClock``'s time, and sleeps of the task.
public struct ContinuousRunClock: RunClock {
    public init() {}

    public var now: Duration { .nanoseconds(MonotonicClock.now()) }

    public func sleep(until deadline: Duration) async throws {
        let remaining = deadline - now
        if remaining > .zero { try await Task.sleep(for: remaining) } else { try Task.checkCancellation() }
    }
}

extension RunClock where Self == ContinuousRunClock {
    /// The real clock, which every run uses unless told otherwise.
    public static var continuous: ContinuousRunClock { ContinuousRunClock() }
}
