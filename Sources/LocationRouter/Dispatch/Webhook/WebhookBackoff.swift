import GeofenceKit

/// The wait between attempts: exponential growth with "full jitter" (a uniform draw between zero and the
/// exponential bound), so that many batches failing together do not retry in lock-step and hammer a
/// recovering receiver at the same instant.
///
/// The draws come from a seeded ``SplitMix64``, so a run's retry timing is reproducible for a given seed.
public struct WebhookBackoff: Sendable, Equatable {
    /// Upper bound of the first wait, in seconds.
    public var initial: Double
    /// How much the bound grows per attempt.
    public var factor: Double
    /// The bound never exceeds this many seconds.
    public var maximum: Double
    public var seed: UInt64

    public init(initial: Double = 0.1, factor: Double = 2, maximum: Double = 5, seed: UInt64 = 0) {
        self.initial = initial
        self.factor = factor
        self.maximum = maximum
        self.seed = seed
    }

    /// The largest wait after failed attempt number `attempt` (1 for the first attempt).
    public func bound(afterAttempt attempt: Int) -> Double {
        let ceiling = maximum.isFinite ? max(0, maximum) : 5
        let start = initial.isFinite ? max(0, initial) : 0.1
        let growth = factor.isFinite ? max(1, factor) : 2
        // Stop multiplying once the ceiling is reached, so huge attempt numbers cannot overflow to infinity.
        var value = start
        var step = 1
        while step < attempt && value < ceiling {
            value *= growth
            step += 1
        }
        return min(value, ceiling)
    }

    /// A wait in `0...bound(afterAttempt:)`, drawn from `generator`.
    public func delay(afterAttempt attempt: Int, using generator: inout SplitMix64) -> Double {
        bound(afterAttempt: attempt) * generator.unit()
    }
}
