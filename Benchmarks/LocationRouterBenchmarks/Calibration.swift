import Foundation
import LocationRouter

/// How fast this machine runs plain code right now: a fixed loop of integer and floating-point arithmetic that
/// touches no memory, on as many threads as the benchmark about to run uses.
///
/// Each measured run of a CPU-bound benchmark is framed by two calibrations. Its throughput over their mean, both
/// in wall-clock time, is `throughputRelative`; its units per CPU-second over the calibration's operations per
/// CPU-second is `cpuRelative`. A machine of another speed scales both alike. Someone else's build taking a core
/// for a while stretches wall-clock time only: CPU time counts the time the benchmark actually ran, so
/// `cpuRelative` holds on a busy machine, where `throughputRelative` depends on how the calibration's 30 ms and
/// the run met the other work.
enum Calibration {
    /// Iterations per thread: about 30 ms on a current core.
    static let iterations = 4_000_000

    struct Speed {
        /// Iterations per wall-clock second, all threads together.
        var wall: Double
        /// Iterations per CPU-second of this process: the speed of one core while it runs the loop.
        var cpu: Double
    }

    /// The loop's speed over `threads` threads running at once.
    static func measure(threads: Int) async -> Speed {
        let cpuBefore = ProcessResources.cpuSeconds()
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
        let cpuSeconds = ProcessResources.cpuSeconds() - cpuBefore
        let total = Double(iterations * max(1, threads))
        // The sum is used, so the loop cannot be optimised away.
        let unused = sum == 42 ? 1e-9 : 0
        return Speed(wall: total / seconds + unused, cpu: total / max(cpuSeconds, 1e-6))
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

/// The CPU time every process of the machine used (Linux `/proc/stat`), to tell how busy the machine was during
/// a run: what the other processes used is the total minus the benchmark's own.
enum MachineCPU {
    /// Busy CPU-seconds of all cores since boot (user, nice, system, interrupts and time stolen by the
    /// hypervisor), or `nil` where `/proc/stat` cannot be read.
    static func busySeconds() -> Double? {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
                let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
            else { return nil }
            let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            guard fields.count >= 8 else { return nil }
            // user nice system idle iowait irq softirq steal: all but idle and iowait.
            let busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
            return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
            return nil
        #endif
    }
}
