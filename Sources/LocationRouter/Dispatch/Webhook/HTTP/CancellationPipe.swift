import Foundation
import Synchronization

/// A pipe whose read end a `poll` can wait on next to a socket, so that cancelling a request wakes the thread
/// blocked in it at once, whatever it is waiting for.
///
/// ``cancel()`` may come from any thread, before, during or after the request; once ``close()`` has released
/// the descriptors it does nothing, so it can never write into a descriptor number reused by someone else.
final class CancellationPipe: Sendable {
    private struct State {
        var readEnd: Int32
        var writeEnd: Int32
        var cancelled = false
        var closed = false
    }

    private let state: Mutex<State>

    /// - Returns: `nil` when the process is out of descriptors.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        state = Mutex(State(readEnd: ends[0], writeEnd: ends[1]))
    }

    /// The descriptor to poll for `POLLIN`: readable once cancelled.
    var readEnd: Int32 { state.withLock { $0.readEnd } }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Wakes the waiting thread; repeated calls do nothing.
    func cancel() {
        state.withLock { state in
            guard !state.cancelled else { return }
            state.cancelled = true
            guard !state.closed else { return }
            var byte: UInt8 = 1
            _ = write(state.writeEnd, &byte, 1)
        }
    }

    /// Releases both descriptors; called once by the request's thread when it is done with them.
    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            _ = Foundation.close(state.readEnd)
            _ = Foundation.close(state.writeEnd)
        }
    }
}
