import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one batch body to an `https://` URL through `URLSession` and classifies the answer.
///
/// There is no TLS in the toolchain outside FoundationNetworking, so `https` keeps its limits: an answer that
/// libcurl completes without a response ends the process with a fatal error, and the body of an answer is
/// buffered whole (up to the deadline). `http` URLs go through ``PlainHTTPClient`` instead, which has neither
/// problem.
///
/// The session is ephemeral (no cookies, cache or credentials persist between runs) and allows at least as
/// many connections to the host as the sink has requests in flight (fewer would queue requests inside the
/// session, where the concurrency limit cannot see them). The session's own timeouts restart with every byte
/// received, so each request also gets a timer that cancels it at the configured timeout: a trickled answer
/// cannot outlast it.
final class URLSessionTransport: Sendable {
    private let session: URLSession
    private let url: URL
    private let timeout: Double
    private let stopped = Atomic<Bool>(false)

    init(configuration: WebhookConfiguration) {
        let settings = URLSessionConfiguration.ephemeral
        settings.httpMaximumConnectionsPerHost = max(configuration.concurrency, 1)
        // FoundationNetworking times a sub-second timeout out at once, so the session gets whole seconds; the
        // request's own deadline (see `send`) enforces the configured value.
        let sessionTimeout = max(1, configuration.timeout.rounded(.up))
        settings.timeoutIntervalForRequest = sessionTimeout
        settings.timeoutIntervalForResource = sessionTimeout
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.httpCookieStorage = nil
        session = URLSession(configuration: settings, delegate: RedirectRefusal(), delegateQueue: nil)
        url = configuration.url
        timeout = configuration.timeout
    }

    /// One attempt: `POST`s `body` as `application/json`.
    func send(_ body: Data) async -> WebhookAttemptOutcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(1, timeout.rounded(.up)))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        // The data task is driven by hand so that cancelling the worker, or `cancelAll`, ends it at once whenever it
        // happens: before the task exists, while it runs, or after the session was told to stop.
        let handle = TaskHandle()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WebhookAttemptOutcome, Never>) in
                guard !stopped.load(ordering: .acquiring) else {
                    continuation.resume(returning: .cancelled)
                    return
                }
                let timeout = timeout
                let task = session.dataTask(with: request) { _, response, error in
                    handle.finish()
                    let outcome = Self.outcome(response: response, error: error)
                    continuation.resume(
                        returning: outcome == .cancelled && handle.expired
                            ? .retryable(reason: "no complete answer within \(timeout) s", retryAfter: nil) : outcome)
                }
                handle.start(task)
                if stopped.load(ordering: .acquiring) { handle.cancel() }
                // The session's own timeouts restart with every byte received: this one is the request's total.
                DispatchQueue.global().asyncAfter(deadline: .now() + min(timeout, 86_400)) { handle.expire() }
            }
        } onCancel: {
            handle.cancel()
        }
    }

    private static func outcome(response: URLResponse?, error: (any Error)?) -> WebhookAttemptOutcome {
        if let error {
            if let urlError = error as? URLError, urlError.code == .cancelled { return .cancelled }
            // Connection refused or reset, DNS, TLS, timeout: any of these may pass, so all are retried.
            return .retryable(reason: error.localizedDescription, retryAfter: nil)
        }
        guard let http = response as? HTTPURLResponse else {
            return .retryable(reason: "not an HTTP response", retryAfter: nil)
        }
        return .classify(status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }

    /// Cancels the requests in flight (they end as ``WebhookAttemptOutcome/cancelled``), refuses new ones, and
    /// releases the session.
    func cancelAll() {
        stopped.store(true, ordering: .releasing)
        session.invalidateAndCancel()
    }

    func invalidate() {
        session.finishTasksAndInvalidate()
    }
}

/// Answers every redirect with "do not follow": a redirected `POST` may be re-sent as a `GET` without its
/// body, which would count as delivered while the events went nowhere. The 3xx answer is then final and
/// dead-letters the batch.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// The data task of one request, cancellable from any thread, also before it is started.
private final class TaskHandle: Sendable {
    private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
    private let deadlinePassed = Atomic<Bool>(false)

    /// Whether ``expire()`` cancelled the task: its cancellation is a timeout, not the sink giving up.
    var expired: Bool { deadlinePassed.load(ordering: .acquiring) }

    /// The task has ended: the handle lets go of it (and so of its request and body), since the deadline timer
    /// keeps the handle for the whole timeout.
    func finish() {
        state.withLock { $0.task = nil }
    }

    /// The request's deadline has passed: cancels the task unless it has already ended.
    func expire() {
        deadlinePassed.store(true, ordering: .releasing)
        cancel()
    }

    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
