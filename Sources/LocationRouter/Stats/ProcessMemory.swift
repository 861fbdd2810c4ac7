import Foundation

/// The process's memory, as the kernel accounts it.
public enum ProcessMemory {
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
        var usage = rusage()
        #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024
        #else
        return Int(usage.ru_maxrss)
        #endif
    }
}
