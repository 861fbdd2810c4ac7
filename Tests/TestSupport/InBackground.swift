import Foundation

/// Runs `body` on a thread of its own at the lowest scheduling priority and returns what it returns: long
/// synchronous work (a minute of parsing in a debug build) kept off the few threads that the suites running in
/// parallel share, and behind them for the cores, so that their timed waits are not spent behind it.
public func inBackground<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            #if os(Linux)
            // Linux keeps a niceness per thread: `who` 0 is this thread alone, not the test process.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            #endif
            continuation.resume(with: Swift.Result { try body() })
        }.start()
    }
}
