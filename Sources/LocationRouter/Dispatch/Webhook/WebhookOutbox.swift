import Synchronization

/// The hand-off between the side that produces batches (`write`, the linger timer, `close`) and the delivery
/// workers, and the ledger of every batch that is not yet settled.
///
/// Batches wait here only until a worker takes them: `write` suspends while any is waiting, and there are
/// exactly `concurrency` workers, so memory stays bounded by `concurrency` batches in flight, one batch
/// waiting and the partial batch, however slow the receiver. A batch is entered in the ledger the moment it is
/// cut, under the same lock that queues it, so `close` can always find — and dead-letter — every batch that
/// was neither delivered nor dead-lettered by a worker.
final class WebhookOutbox: Sendable {
    /// A batch given straight to a worker that was waiting for one; resumed after the lock is released.
    private typealias Handoff = (worker: CheckedContinuation<WebhookBatch?, Never>, batch: WebhookBatch)

    private struct State {
        var builder: WebhookBatchBuilder
        /// Cut, not yet taken by a worker, oldest first.
        var queue: [WebhookBatch] = []
        /// Cut, not yet settled (delivered or dead-lettered).
        var unsettled: [UInt64: WebhookBatch] = [:]
        var acceptedEvents = 0
        /// Changes whenever the partial batch is emptied, so a linger timer armed for an older partial batch
        /// does nothing.
        var generation: UInt64 = 0
        var armedGeneration: UInt64?
        var finished = false
        var abandoned = false
        var idleWorkers: [CheckedContinuation<WebhookBatch?, Never>] = []
        var writers = WaitQueue()
        var writerWaits = 0

        /// Enters `batches` in the ledger and gives each to an idle worker or queues it; the caller resumes
        /// the returned workers after unlocking.
        mutating func enqueue(_ batches: [WebhookBatch]) -> [Handoff] {
            var handoffs: [Handoff] = []
            for batch in batches {
                unsettled[batch.id] = batch
                acceptedEvents += batch.events
                if idleWorkers.isEmpty {
                    queue.append(batch)
                } else {
                    handoffs.append((idleWorkers.removeFirst(), batch))
                }
            }
            return handoffs
        }
    }

    private let state: Mutex<State>

    init(batchSize: Int) {
        state = Mutex(State(builder: WebhookBatchBuilder(batchSize: batchSize)))
    }

    /// Events cut into batches so far: after ``finish()``, every event ever added.
    var acceptedEvents: Int { state.withLock { $0.acceptedEvents } }
    /// How often a write had to wait for a worker: how often back-pressure acted.
    var writerWaits: Int { state.withLock { $0.writerWaits } }

    /// Adds NDJSON lines; full batches go to the workers at once.
    /// - Returns: the generation to arm a linger timer for, when a new partial batch has started.
    /// - Throws: ``SinkError`` after ``finish()``.
    func add(_ bytes: [UInt8], destination: String) throws -> UInt64? {
        let (handoffs, arm) = try state.withLock { state in
            guard !state.finished else {
                throw SinkError(destination: destination, message: "write after close")
            }
            let full = state.builder.append(bytes)
            if !full.isEmpty { state.generation &+= 1 }
            let handoffs = state.enqueue(full)
            var arm: UInt64?
            if state.builder.pendingEvents > 0 && state.armedGeneration != state.generation {
                state.armedGeneration = state.generation
                arm = state.generation
            }
            return (handoffs, arm)
        }
        for (worker, batch) in handoffs { worker.resume(returning: batch) }
        return arm
    }

    /// The linger time of the partial batch of `generation` is up: sends it, unless it was sent already.
    func lingerExpired(generation: UInt64) {
        let handoffs = state.withLock { state -> [Handoff] in
            guard !state.finished, state.generation == generation, let batch = state.builder.cutPartial() else {
                return []
            }
            state.generation &+= 1
            return state.enqueue([batch])
        }
        for (worker, batch) in handoffs { worker.resume(returning: batch) }
    }

    /// Suspends while batches wait for a worker.
    /// - Throws: `CancellationError` if the task is cancelled meanwhile; the batches stay queued.
    func waitUntilTaken() async throws {
        let id: UInt64? = state.withLock { state in
            guard !state.queue.isEmpty, !state.abandoned else { return nil }
            state.writerWaits += 1
            return state.writers.makeID()
        }
        guard let id else { return }
        try await waitCancellably(id, on: state, queue: \.writers) { state in
            state.queue.isEmpty || state.abandoned
        }
    }

    /// The next batch for a worker, waiting for one; `nil` once the outbox is finished and empty, or abandoned.
    func next() async -> WebhookBatch? {
        await withCheckedContinuation { (continuation: CheckedContinuation<WebhookBatch?, Never>) in
            enum Outcome {
                case batch(WebhookBatch, [WaitQueue.Waiter])
                case none
                case wait
            }
            let outcome: Outcome = state.withLock { state in
                if state.abandoned { return .none }
                if !state.queue.isEmpty {
                    let batch = state.queue.removeFirst()
                    let released = state.queue.isEmpty ? state.writers.removeAll() : []
                    return .batch(batch, released)
                }
                if state.finished { return .none }
                state.idleWorkers.append(continuation)
                return .wait
            }
            switch outcome {
            case .batch(let batch, let released):
                for writer in released { writer.resume() }
                continuation.resume(returning: batch)
            case .none: continuation.resume(returning: nil)
            case .wait: break
            }
        }
    }

    /// No more writes: the partial batch (and an unterminated last line) is cut and queued, and workers stop
    /// once the queue is empty.
    func finish() {
        let (handoffs, released) = state.withLock { state in
            guard !state.finished else { return ([Handoff](), [CheckedContinuation<WebhookBatch?, Never>]()) }
            state.finished = true
            state.generation &+= 1
            let handoffs = state.enqueue(state.builder.finish())
            var released: [CheckedContinuation<WebhookBatch?, Never>] = []
            swap(&released, &state.idleWorkers)
            return (handoffs, released)
        }
        for (worker, batch) in handoffs { worker.resume(returning: batch) }
        for worker in released { worker.resume(returning: nil) }
    }

    /// Workers take no further batch and writers stop waiting; batches stay in the ledger for
    /// ``takeUnsettled()``.
    func abandon() {
        let (workers, writers) = state.withLock { state in
            state.abandoned = true
            var workers: [CheckedContinuation<WebhookBatch?, Never>] = []
            swap(&workers, &state.idleWorkers)
            return (workers, state.writers.removeAll())
        }
        for worker in workers { worker.resume(returning: nil) }
        for writer in writers { writer.resume() }
    }

    /// Removes a batch from the ledger.
    /// - Returns: `false` if it was not there (taken by ``takeUnsettled()``), so it is counted only once.
    func settle(_ id: UInt64) -> Bool {
        state.withLock { $0.unsettled.removeValue(forKey: id) != nil }
    }

    /// Abandons the outbox and empties the ledger: the batches that were neither delivered nor dead-lettered,
    /// oldest first.
    func takeUnsettled() -> [WebhookBatch] {
        abandon()
        return state.withLock { state in
            let batches = state.unsettled.values.sorted { $0.id < $1.id }
            state.unsettled.removeAll()
            state.queue.removeAll()
            return batches
        }
    }
}
