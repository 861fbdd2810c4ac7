import Synchronization

/// Tasks suspended until their owner lets them go, in FIFO order: the bookkeeping of a cancellable wait.
///
/// It lives inside the owner's own locked state (the webhook outbox), so that deciding to wait and
/// being woken are atomic with the owner's other state; ``waitCancellably(_:on:queue:proceedsNow:)`` does the
/// suspending.
struct WaitQueue: Sendable {
    typealias Waiter = CheckedContinuation<Void, any Error>

    private var waiters: [(id: UInt64, continuation: Waiter)] = []
    /// Waits whose task was cancelled before they were queued: a cancellation handler may run first.
    private var cancelledEarly: Set<UInt64> = []
    private var lastID: UInt64 = 0

    var isEmpty: Bool { waiters.isEmpty }

    /// A fresh identifier for the next wait.
    mutating func makeID() -> UInt64 {
        lastID &+= 1
        return lastID
    }

    /// The longest-waiting task, removed (its owner resumes it).
    mutating func popFirst() -> Waiter? {
        waiters.isEmpty ? nil : waiters.removeFirst().continuation
    }

    /// Every waiting task, removed (their owner resumes them).
    mutating func removeAll() -> [Waiter] {
        defer { waiters = [] }
        return waiters.map(\.continuation)
    }

    /// Whether the wait's task was cancelled before the wait began (forgetting it).
    fileprivate mutating func wasCancelledEarly(_ id: UInt64) -> Bool {
        cancelledEarly.remove(id) != nil
    }

    fileprivate mutating func enqueue(_ id: UInt64, _ waiter: Waiter) {
        waiters.append((id, waiter))
    }

    /// Removes a cancelled wait, or remembers the cancellation when the wait is not queued yet.
    fileprivate mutating func cancel(_ id: UInt64) -> Waiter? {
        if let index = waiters.firstIndex(where: { $0.id == id }) { return waiters.remove(at: index).continuation }
        cancelledEarly.insert(id)
        return nil
    }
}

/// Suspends the current task as wait `id` in the ``WaitQueue`` at `queue` of the state behind `mutex`, unless
/// `proceedsNow` (run under the same lock, free to update the state) lets it go on at once. The task resumes
/// when its owner pops it, or throws `CancellationError` when it is cancelled first.
func waitCancellably<State>(
    _ id: UInt64, on mutex: borrowing Mutex<State>, queue: WritableKeyPath<State, WaitQueue> & Sendable,
    proceedsNow: (inout State) -> Bool
) async throws {
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: WaitQueue.Waiter) in
            let outcome: WaitOutcome = mutex.withLock { state in
                // A cancelled task never proceeds, even when it could: it would take what it no longer wants.
                if state[keyPath: queue].wasCancelledEarly(id) { return .cancelled }
                if proceedsNow(&state) { return .proceed }
                state[keyPath: queue].enqueue(id, continuation)
                return .wait
            }
            switch outcome {
            case .proceed: continuation.resume()
            case .cancelled: continuation.resume(throwing: CancellationError())
            case .wait: break
            }
        }
    } onCancel: {
        mutex.withLock { $0[keyPath: queue].cancel(id) }?.resume(throwing: CancellationError())
    }
}

private enum WaitOutcome { case proceed, cancelled, wait }
