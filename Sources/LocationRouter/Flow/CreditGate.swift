import Synchronization

/// Loss-free, bounded flow control between two stages: a producer takes a credit before it sends a batch and
/// the consumer returns it once the batch is handled, so at most `capacity` batches are ever in flight.
///
/// AsyncStream's only loss-free buffering policy (`.unbounded`) has no back-pressure and the bounded policies
/// drop elements; pairing an unbounded stream with a gate gives both: nothing is dropped and memory is bounded
/// by `capacity` batches, however slow the consumer. Waiting producers are resumed in FIFO order; a waiting
/// producer whose task is cancelled throws `CancellationError`.
public final class CreditGate: Sendable {
    private struct State {
        var available: Int
        var inFlight = 0
        var peakInFlight = 0
        var waits = 0
        var waiters = WaitQueue()

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
    /// Batches taken and not yet returned: the one being handled and those queued behind it.
    public var inFlight: Int { state.withLock { $0.inFlight } }
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
            return state.waiters.makeID()
        }
        guard let id else { return }
        try await waitCancellably(id, on: state, queue: \.waiters) { state in
            guard state.available > 0 else { return false }
            state.take()
            return true
        }
    }

    /// Returns a credit: hands it straight to the longest-waiting producer, if any.
    public func release() {
        let waiter: WaitQueue.Waiter? = state.withLock { state in
            state.inFlight -= 1
            state.available += 1
            guard !state.waiters.isEmpty else { return nil }
            state.take()
            return state.waiters.popFirst()
        }
        waiter?.resume()
    }
}
