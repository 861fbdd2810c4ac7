import Synchronization

/// The signals between a ``WebhookSink``'s writing side and its ``WebhookSink/run()``: the linger deadline of
/// the partial batch, the start of `close()` (which starts the grace period) and the end of `run()` (which
/// `close()` waits for).
///
/// Only the newest partial batch's deadline is kept: arming a new generation means the older partial batch
/// was sent already, and deadlines only grow (the linger time is fixed), so one timer that sleeps to the
/// armed deadline and checks again serves every partial batch.
final class WebhookSchedule: Sendable {
    private struct State {
        var armed: (generation: UInt64, deadline: Duration)?
        var closing = false
        var drained = false
        var lingerWaits = WaitQueue()
        var closeWaits = WaitQueue()
        var drainWaits: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// A partial batch of `generation` began: it is due at `deadline`.
    func arm(generation: UInt64, deadline: Duration) {
        let waiters = state.withLock { state in
            state.armed = (generation, deadline)
            return state.lingerWaits.removeAll()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The armed partial batch, waiting for one; `nil` once closing.
    /// - Throws: `CancellationError` if the task is cancelled meanwhile.
    func nextArmed() async throws -> (generation: UInt64, deadline: Duration)? {
        while true {
            let (armed, closing, id) = state.withLock { state in
                (state.armed, state.closing, state.armed == nil && !state.closing ? state.lingerWaits.makeID() : 0)
            }
            if closing { return nil }
            if let armed { return armed }
            try await waitCancellably(id, on: state, queue: \.lingerWaits) { $0.armed != nil || $0.closing }
        }
    }

    /// Whether `generation` is still the armed one; if so it is disarmed, for the caller to send it.
    func disarm(_ generation: UInt64) -> Bool {
        state.withLock { state in
            guard state.armed?.generation == generation else { return false }
            state.armed = nil
            return true
        }
    }

    /// `close()` has begun: the linger timer stops, the grace period starts.
    func beginClosing() {
        let waiters = state.withLock { state in
            state.closing = true
            return state.lingerWaits.removeAll() + state.closeWaits.removeAll()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until ``beginClosing()``.
    /// - Throws: `CancellationError` if the task is cancelled first.
    func waitUntilClosing() async throws {
        let id = state.withLock { $0.closeWaits.makeID() }
        try await waitCancellably(id, on: state, queue: \.closeWaits) { $0.closing }
    }

    /// `run()` has returned: no worker is left.
    func markDrained() {
        let waiters = state.withLock { state in
            state.drained = true
            var waiters: [CheckedContinuation<Void, Never>] = []
            swap(&waiters, &state.drainWaits)
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until ``markDrained()``, even in a cancelled task: `close()` must not settle the ledger while
    /// workers may still deliver.
    func waitUntilDrained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.drained { return true }
                state.drainWaits.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
