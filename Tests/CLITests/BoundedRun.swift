import Foundation
import GeofenceKit
import Testing

@testable import location_router

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: Running the executable with limits

struct BoundedRun {
    var status: Int32
    var out: String
    var err: String
    /// The child's peak resident memory (on Linux its `VmHWM`, sampled every few milliseconds while it runs).
    var peakResidentBytes: Int
    var timedOut: Bool
    var timeLimit: Duration
}

/// Runs the built `location-router` with `stdin` (a path) as its standard input, its output in files of `folder`,
/// and kills it after `timeLimit`. The exit status is the command's, or 128 + the signal that ended it.
func runExecutableBounded(
    _ arguments: [String], stdin: String, folder: String, timeLimit: Duration = .seconds(120)
) async throws -> BoundedRun {
    let executable = try executablePath()
    let outPath = folder + "/stdout", errPath = folder + "/stderr"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + environment).forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environment)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

    var status: Int32 = 0
    var usage = rusage()
    var timedOut = false
    var peak = 0
    let deadline = ContinuousClock.now + timeLimit
    while true {
        #if os(Linux)
        // The child's own high-water mark, sampled while it runs: wait4's ru_maxrss would also count the memory of
        // this test process, which posix_spawn's child shares until it execs.
        peak = max(peak, residentHighWaterMark(of: pid))
        #endif
        let waited = wait4(pid, &status, WNOHANG, &usage)
        if waited == pid { break }
        if waited < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if ContinuousClock.now > deadline && !timedOut {
            timedOut = true
            kill(pid, SIGKILL)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
    let signal = status & 0x7F
    #if !os(Linux)
    peak = Int(usage.ru_maxrss)  // bytes on Darwin
    #endif
    func text(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
    return BoundedRun(
        status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, out: text(outPath), err: text(errPath),
        peakResidentBytes: peak, timedOut: timedOut, timeLimit: timeLimit)
}

/// `VmHWM` of a running process in bytes; 0 when it cannot be read (the process has ended).
func residentHighWaterMark(of pid: pid_t) -> Int {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/status") else { return 0 }
    let status = String(decoding: data, as: UTF8.self)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
    else { return 0 }
    return kilobytes * 1024
}
