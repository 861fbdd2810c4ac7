import Dispatch
import Synchronization

/// Hands the result of one ``PlainHTTPClient`` exchange, once, to the task waiting for it.
///
/// Normally the exchange's thread delivers it. A cancelled exchange's thread answers within microseconds (its
/// `poll` wakes on the ``CancellationPipe``), and its result wins, so an answer whose head had arrived still
/// stands; but a thread that cannot answer — blocked in the system resolver, or never started — must not hold
/// the task: shortly after a cancellation, ``cancelSoon()`` delivers `.cancelled` instead, and the thread's late
/// result is dropped.
final class ExchangeCompletion: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<PlainHTTPResult, Never>)
        case early(PlainHTTPResult)
        case done
    }

    /// How long a cancelled exchange's thread gets to deliver its own result.
    static let cancellationGrace = 0.2

    private let state = Mutex(State.pending)

    /// Registers the waiting task; resumes it at once if the result is already there.
    func wait(_ continuation: CheckedContinuation<PlainHTTPResult, Never>) {
        let early = state.withLock { state -> PlainHTTPResult? in
            switch state {
            case .pending:
                state = .waiting(continuation)
                return nil
            case .early(let result):
                state = .done
                return result
            case .waiting, .done:
                return nil
            }
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Delivers `result`, unless a result was delivered already.
    func complete(_ result: PlainHTTPResult) {
        let waiting = state.withLock { state -> CheckedContinuation<PlainHTTPResult, Never>? in
            switch state {
            case .pending:
                state = .early(result)
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .early, .done:
                return nil
            }
        }
        waiting?.resume(returning: result)
    }

    /// After ``cancellationGrace``, delivers `.cancelled` if the thread has not delivered its result by then.
    func cancelSoon() {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.cancellationGrace) { self.complete(.cancelled) }
    }
}
