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
/// - Running: the workers, the linger timer and the grace period live in ``run()``, which the owner runs as a
///   child task beside whatever writes to the sink (``Simulation`` does; an embedding program runs it in its
///   own task group, as swift-service-lifecycle runs a service). `run()` returns once `close()` has begun and
///   everything is delivered, dead-lettered or past the grace period; `close()` waits for that, so a sink
///   whose `run()` is never started holds its events and never closes.
public final class WebhookSink: EventSink {
    public let configuration: WebhookConfiguration
    private let delivery: WebhookDelivery
    private let schedule = WebhookSchedule()
    private let closed = Atomic<Bool>(false)

    /// A sink whose workers start with ``run()``.
    /// - Parameters:
    ///   - clock: what the backoff, the linger time and the grace period wait on (request timeouts are the
    ///     transport's, on the real clock).
    public init(configuration: WebhookConfiguration, clock: any RunClock = .continuous) {
        let configuration = configuration.normalized
        self.configuration = configuration
        delivery = WebhookDelivery(configuration: configuration, clock: clock)
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

    /// A sink dropped without `close()` lets waiting writers go; whatever it held is not delivered.
    deinit {
        delivery.outbox.abandon()
    }

    /// What happened to the events so far; final once `close()` has returned.
    public var statistics: WebhookStatistics { delivery.statistics }

    /// Runs the `concurrency` delivery workers, the linger timer and, once `close()` has begun, the grace
    /// period; returns when the workers are done (everything queued is settled, or the grace period ended
    /// and what was left is cancelled). Run it once, as a child task beside the writers, before or while
    /// writing.
    ///
    /// Cancelling it stops the workers at once: `close()` then dead-letters every event not yet delivered.
    public func run() async {
        let delivery = delivery
        let schedule = schedule
        let configuration = configuration
        await withTaskCancellationHandler {
            await withTaskGroup(of: RunPart.self) { group in
                for _ in 0..<configuration.concurrency {
                    group.addTask {
                        await delivery.runWorker()
                        return .worker
                    }
                }
                group.addTask {
                    // The linger timer: sends the partial batch when its time is up.
                    while let armed = try? await schedule.nextArmed() {
                        guard (try? await delivery.clock.sleep(until: armed.deadline)) != nil else { break }
                        if schedule.disarm(armed.generation) { delivery.outbox.lingerExpired(generation: armed.generation) }
                    }
                    return .timer
                }
                group.addTask {
                    guard (try? await schedule.waitUntilClosing()) != nil,
                        await delivery.clock.sleep(seconds: configuration.gracePeriod)
                    else { return .timer }
                    return .graceEnded
                }
                var workers = configuration.concurrency
                for await part in group {
                    switch part {
                    case .worker:
                        workers -= 1
                        if workers == 0 { group.cancelAll() }
                    case .graceEnded:
                        delivery.outbox.abandon()
                        delivery.transport.cancelAll()
                        group.cancelAll()
                    case .timer: break
                    }
                }
            }
        } onCancel: {
            delivery.outbox.abandon()
            delivery.transport.cancelAll()
        }
        schedule.markDrained()
    }

    private enum RunPart: Sendable { case worker, timer, graceEnded }

    /// Batches `bytes` (whole NDJSON lines) and suspends while every request slot is busy.
    /// - Throws: ``SinkError`` after `close()`; `CancellationError` if cancelled while waiting, in which case
    ///   the events are still queued and `close()` delivers or dead-letters them.
    public func write(_ bytes: [UInt8]) async throws {
        if let generation = try delivery.outbox.add(bytes, destination: configuration.url.absoluteString) {
            let linger = configuration.linger.isFinite ? min(max(0, configuration.linger), 86_400) : 86_400
            schedule.arm(generation: generation, deadline: delivery.clock.now + .nanoseconds(Int64(linger * 1e9)))
        }
        try await delivery.outbox.waitUntilTaken()
    }

    /// Sends what is left, waits for ``run()`` to deliver it (up to the grace period), dead-letters the rest.
    /// Calling it again does nothing.
    /// - Throws: ``SinkError`` naming the dead-letter file if events could be neither delivered nor written
    ///   there.
    public func close() async throws {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        delivery.outbox.finish()
        schedule.beginClosing()
        await schedule.waitUntilDrained()
        await delivery.deadLetterUnsettled()
        delivery.transport.invalidate()
        delivery.deadLetterFile.close()
        if let error = delivery.lossError { throw error }
    }
}
