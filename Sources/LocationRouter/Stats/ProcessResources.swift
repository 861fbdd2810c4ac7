import Foundation

/// The process's resource usage, as the kernel accounts it.
public enum ProcessResources {
    /// The peak resident set size in bytes (`VmHWM` on Linux, `ru_maxrss` elsewhere).
    public static func peakResidentBytes() -> Int {
        #if os(Linux)
        if let kilobytes = kilobytes("VmHWM", in: "/proc/self/status") { return kilobytes * 1024 }
        #endif
        let usage = selfUsage()
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024
        #else
        return Int(usage.ru_maxrss)
        #endif
    }

    /// The value of a `Key:   123 kB` line of a Linux `/proc` file, in kilobytes.
    static func kilobytes(_ key: String, in file: String) -> Int? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") })
        else { return nil }
        return Int(line.dropFirst(key.count + 1).filter(\.isNumber))
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
