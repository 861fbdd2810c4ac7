import GeofenceKit
import Synchronization

/// The delivery workers' side of a ``WebhookSink``: takes batches from the outbox, sends each until it is
/// delivered or given up on, and keeps the statistics.
///
/// A sink runs exactly `concurrency` workers and each has one request (or one backoff wait) at a time, so
/// the limit on requests in flight holds by construction, with no counter to get wrong. A batch waiting out
/// its backoff keeps its worker: a failing receiver therefore slows the pipeline down instead of letting
/// batches pile up in memory.
final class WebhookDelivery: Sendable {
    private struct Ledger {
        var statistics = WebhookStatistics()
        /// The first reason events were lost, for the error `close()` throws.
        var lossReason: String?
    }

    let configuration: WebhookConfiguration
    let outbox: WebhookOutbox
    let transport: WebhookTransport
    let deadLetterFile: DeadLetterFile
    /// What backoff, linger and the grace period wait on.
    let clock: any RunClock
    private let ledger = Mutex(Ledger())
    private let jitter: Mutex<SplitMix64>

    init(configuration: WebhookConfiguration, clock: any RunClock) {
        self.configuration = configuration
        self.clock = clock
        outbox = WebhookOutbox(batchSize: configuration.batchSize)
        transport = WebhookTransport(configuration: configuration)
        deadLetterFile = DeadLetterFile(path: configuration.resolvedDeadLetterPath)
        jitter = Mutex(SplitMix64(seed: configuration.backoff.seed))
    }

    var statistics: WebhookStatistics {
        var statistics = ledger.withLock { $0.statistics }
        statistics.accepted = outbox.acceptedEvents
        statistics.writeWaits = outbox.writerWaits
        return statistics
    }

    /// The error `close()` throws when events were lost, naming how many and why.
    var lossError: SinkError? {
        ledger.withLock { ledger in
            guard ledger.statistics.lost > 0 else { return nil }
            return SinkError(
                destination: configuration.resolvedDeadLetterPath,
                message: "\(ledger.statistics.lost) events could be neither delivered to \(configuration.url.absoluteString) "
                    + "nor appended to the dead-letter file: \(ledger.lossReason ?? "unknown error")")
        }
    }

    /// One worker: delivers batches until the outbox is finished and empty, or abandoned.
    func runWorker() async {
        while let batch = await outbox.next() {
            await deliver(batch)
        }
    }

    /// Sends `batch` until it is delivered, refused, out of attempts, or the sink gives up on it (then it stays
    /// unsettled and `close()` dead-letters it).
    private func deliver(_ batch: WebhookBatch) async {
        let started = MonotonicClock.now()
        var attempt = 1
        while true {
            switch await transport.send(batch.body) {
            case .delivered:
                guard outbox.settle(batch.id) else { return }
                let latency = MonotonicClock.now() &- started
                ledger.withLock { ledger in
                    ledger.statistics.delivered += batch.events
                    ledger.statistics.deliveredRequests += 1
                    ledger.statistics.latency.record(latency)
                }
                return
            case .rejected(let reason):
                ledger.withLock { $0.statistics.lastFailure = reason }
                await deadLetter(batch)
                return
            case .cancelled:
                return
            case .retryable(let reason, let retryAfter):
                ledger.withLock { $0.statistics.lastFailure = reason }
                guard attempt < configuration.maxAttempts else {
                    await deadLetter(batch)
                    return
                }
                let wait = retryAfter.map { min($0, configuration.maxRetryAfter) }
                    ?? jitter.withLock { configuration.backoff.delay(afterAttempt: attempt, using: &$0) }
                guard await clock.sleep(seconds: wait) else { return }
                attempt += 1
                ledger.withLock { $0.statistics.retries += 1 }
            }
        }
    }

    /// Settles `batch` and appends it to the dead-letter file, unless it was settled already.
    func deadLetter(_ batch: WebhookBatch) async {
        guard outbox.settle(batch.id) else { return }
        await append(batch)
    }

    /// After the workers stopped: dead-letters every batch that is still unsettled.
    func deadLetterUnsettled() async {
        for batch in outbox.takeUnsettled() { await append(batch) }
    }

    private func append(_ batch: WebhookBatch) async {
        do {
            try await deadLetterFile.append(batch.lines)
            ledger.withLock { ledger in
                ledger.statistics.deadLettered += batch.events
                ledger.statistics.failedRequests += 1
            }
        } catch {
            ledger.withLock { ledger in
                ledger.statistics.lost += batch.events
                ledger.statistics.failedRequests += 1
                if ledger.lossReason == nil { ledger.lossReason = "\(error)" }
            }
        }
    }
}
