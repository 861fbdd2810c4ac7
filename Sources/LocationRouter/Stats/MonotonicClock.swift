import Foundation

/// Wall-clock nanoseconds that never go backwards, for latency and throughput (never for simulated time).
public enum MonotonicClock {
    @inline(__always)
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
