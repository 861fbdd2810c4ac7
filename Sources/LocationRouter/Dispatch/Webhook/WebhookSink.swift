import Foundation
import Synchronization

/// An ``EventSink`` that `POST`s events to an HTTP(S) endpoint in batches, and never loses one: each event is
/// either answered with 2xx or appended to the dead-letter file.
///
/// - Batches: `write` splits its NDJSON lines into batches of `batchSize` events; each request's body is a
///   JSON array of the event objects, byte for byte as in the NDJSON lines. A partial batch is sent after
///   `linger` seconds or at `close()`.
/// - Back-pressure: `concurrency` workers send one request each; while all are busy, `write` suspends. The
///   dispatcher returns no credit meanwhile, so a slow or failing receiver slows the whole run down instead
///   of growing a queue.
/// - Retries: connection errors, timeouts, 429 and 5xx are retried up to `maxAttempts` attempts in all, after
///   an exponential backoff with full jitter, or after `Retry-After` (seconds or an HTTP-date) on 429 and 503.
///   Other answers (other 4xx; 3xx, since redirects are not followed) are not retried.
/// - Dead letters: a batch that is refused, out of attempts, or undelivered when `close()`'s grace period
///   ends is appended to the dead-letter file as its original NDJSON lines (default
///   ``WebhookConfiguration/defaultDeadLetterPath``, created only when needed).
/// - Delivery is at-least-once: a batch retried after a timeout or a lost connection, or dead-lettered at the
///   end of the grace period, may already have reached the receiver without its answer arriving in time.
/// - `close()` sends the partial batch, waits up to `gracePeriod` for everything queued and in flight, then
///   cancels what is left, dead-letters it and returns. It throws only if the dead-letter file itself could
///   not be written, naming how many events were lost.
public final class WebhookSink: EventSink {
    public let configuration: WebhookConfiguration
    private let delivery: WebhookDelivery
    /// The task that owns the delivery workers, so `close()` can wait for them and cancel them together.
    private let workers: Task<Void, Never>
    private let closed = Atomic<Bool>(false)

    /// Starts the delivery workers; they wait for the first batch.
    /// - Parameters:
    ///   - clock: what the backoff, the linger time and the grace period wait on (request timeouts are the
    ///     transport's, on the real clock).
    public init(configuration: WebhookConfiguration, clock: any RunClock = .continuous) {
        let configuration = configuration.normalized
        let delivery = WebhookDelivery(configuration: configuration, clock: clock)
        self.configuration = configuration
        self.delivery = delivery
        workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<configuration.concurrency {
                    group.addTask { await delivery.runWorker() }
                }
            }
        }
    }

    /// The sink for `--webhook URL`, with the default batching, retries and grace period.
    /// - Parameters:
    ///   - deadLetterPath: `nil` for ``WebhookConfiguration/defaultDeadLetterPath``.
    ///   - seed: the run's seed, so retry jitter is reproducible.
    /// - Throws: ``WebhookConfigurationError`` unless `url` is an `http` or `https` URL.
    public static func make(url: String, deadLetterPath: String? = nil, seed: UInt64 = 0) throws -> WebhookSink {
        var configuration = try WebhookConfiguration(url: url, deadLetterPath: deadLetterPath)
        configuration.backoff.seed = seed
        return WebhookSink(configuration: configuration)
    }

    /// A sink dropped without `close()` stops its workers; whatever they held is not delivered.
    deinit {
        workers.cancel()
        delivery.outbox.abandon()
    }

    /// What happened to the events so far; final once `close()` has returned.
    public var statistics: WebhookStatistics { delivery.statistics }

    /// Batches `bytes` (whole NDJSON lines) and suspends while every request slot is busy.
    /// - Throws: ``SinkError`` after `close()`; `CancellationError` if cancelled while waiting, in which case
    ///   the events are still queued and `close()` delivers or dead-letters them.
    public func write(_ bytes: [UInt8]) async throws {
        if let generation = try delivery.outbox.add(bytes, destination: configuration.url.absoluteString) {
            let outbox = delivery.outbox
            let linger = configuration.linger
            let clock = delivery.clock
            Task {
                guard await clock.sleep(seconds: linger) else { return }
                outbox.lingerExpired(generation: generation)
            }
        }
        try await delivery.outbox.waitUntilTaken()
    }

    /// Sends what is left, waits up to the grace period, dead-letters the rest. Calling it again does nothing.
    /// - Throws: ``SinkError`` naming the dead-letter file if events could be neither delivered nor written
    ///   there.
    public func close() async throws {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let delivery = delivery
        let workers = workers
        delivery.outbox.finish()
        let deadline = Task {
            guard await delivery.clock.sleep(seconds: delivery.configuration.gracePeriod) else { return }
            delivery.outbox.abandon()
            workers.cancel()
            delivery.transport.cancelAll()
        }
        await workers.value
        deadline.cancel()
        delivery.deadLetterUnsettled()
        delivery.transport.invalidate()
        delivery.deadLetterFile.close()
        if let error = delivery.lossError { throw error }
    }
}
