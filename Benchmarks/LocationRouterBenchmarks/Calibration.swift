import LocationRouter

/// How fast this machine runs plain code right now: a fixed loop of integer and floating-point arithmetic that
/// touches no memory, on as many threads as the benchmark about to run uses.
///
/// Each measured run of a CPU-bound benchmark is framed by two calibrations; its throughput divided by their mean
/// (`throughputRelative`) is what `--check` compares with the baseline. A machine of another speed, or one that
/// someone else's build slows down for a while, scales both alike, so the ratio moves only when the code does.
enum Calibration {
    /// Iterations per thread: about 10 ms on a current core.
    static let iterations = 4_000_000

    /// Iterations per second over `threads` threads running at once (millions per second per core, typically).
    static func measure(threads: Int) async -> Double {
        let start = MonotonicClock.now()
        let sum = await withTaskGroup(of: UInt64.self) { group in
            for thread in 0..<max(1, threads) {
                group.addTask { spin(seed: UInt64(thread)) }
            }
            var sum: UInt64 = 0
            for await part in group { sum &+= part }
            return sum
        }
        let seconds = Double(MonotonicClock.now() - start) / 1e9
        // The sum is used, so the loop cannot be optimised away.
        return Double(iterations * max(1, threads)) / seconds + (sum == 42 ? 1e-9 : 0)
    }

    /// A dependent chain: a generator step, a conversion, a multiply-add and a square root per iteration.
    private static func spin(seed: UInt64) -> UInt64 {
        var state = seed
        var x = 1.0
        for _ in 0..<iterations {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            x = (x * 0.999_999 + Double(state >> 40) * 1e-12).squareRoot()
        }
        return state ^ x.bitPattern
    }
}
