import Foundation

/// The process's resource usage, as the kernel accounts it.
public enum ProcessResources {
    /// The peak resident set size in bytes (`VmHWM` on Linux, `ru_maxrss` elsewhere).
    public static func peakResidentBytes() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
        {
            return kilobytes * 1024
        }
        #endif
        let usage = selfUsage()
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024
        #else
        return Int(usage.ru_maxrss)
        #endif
    }

    /// CPU time (user + system) used by the process so far, in seconds.
    public static func cpuSeconds() -> Double {
        let usage = selfUsage()
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private static func selfUsage() -> rusage {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage
    }
}
