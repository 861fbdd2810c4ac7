import Foundation

/// The machine's processor, as the system names it: recorded in a baseline, so that a check on another processor
/// says so.
enum Processor {
    /// The first `model name` of `/proc/cpuinfo` (Linux); "unknown" elsewhere.
    static let name: String = {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return "unknown"
    }()
}
