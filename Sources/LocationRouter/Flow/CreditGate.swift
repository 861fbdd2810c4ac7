import Synchronization

/// Loss-free, bounded flow control between two stages: a producer takes a credit before it sends a batch and
/// the consumer returns it once the batch is handled, so at most `capacity` batches are ever in flight.
///
/// AsyncStream's only loss-free buffering policy (`.unbounded`) has no back-pressure and the bounded policies
/// drop elements; pairing an unbounded stream with a gate gives both: nothing is dropped and memory is bounded
/// by `capacity` batches, however slow the consumer. Waiting producers are resumed in FIFO order; a waiting
/// producer whose task is cancelled throws `CancellationError`.
public final class CreditGate: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var inFlight = 0
        var peakInFlight = 0
        var waits = 0
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        var cancelledBeforeWaiting: Set<UInt64> = []

        mutating func take() {
            available -= 1
            inFlight += 1
            peakInFlight = max(peakInFlight, inFlight)
        }
    }

    public let capacity: Int
    private let state: Mutex<State>

    public init(capacity: Int) {
        precondition(capacity > 0, "a gate needs at least one credit")
        self.capacity = capacity
        state = Mutex(State(available: capacity))
    }

    /// The most batches that were in flight at once: never more than ``capacity``.
    public var peakInFlight: Int { state.withLock { $0.peakInFlight } }
    /// How many times a producer had to wait for a credit (how often back-pressure acted).
    public var waitCount: Int { state.withLock { $0.waits } }

    /// Takes a credit, waiting until the consumer returns one when none is left.
    public func acquire() async throws {
        let id: UInt64? = state.withLock { state in
            if state.available > 0 {
                state.take()
                return nil
            }
            state.waits += 1
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case proceed, cancelled, wait }
                let outcome: Outcome = state.withLock { state in
                    if state.cancelledBeforeWaiting.remove(id) != nil { return .cancelled }
                    if state.available > 0 {
                        state.take()
                        return .proceed
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .wait
                }
                switch outcome {
                case .proceed: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    return state.waiters.remove(at: index)
                }
                state.cancelledBeforeWaiting.insert(id)
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns a credit: hands it straight to the longest-waiting producer, if any.
    public func release() {
        let waiter: Waiter? = state.withLock { state in
            state.inFlight -= 1
            state.available += 1
            guard !state.waiters.isEmpty else { return nil }
            state.take()
            return state.waiters.removeFirst()
        }
        waiter?.continuation.resume()
    }
}
