import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one batch body and classifies the answer; owns the `URLSession` of a sink.
///
/// The session is ephemeral (no cookies, cache or credentials persist between runs), allows at least as
/// many connections to the host as the sink has requests in flight (fewer would queue requests inside the
/// session, where the concurrency limit cannot see them), and gives every request the configured timeout as
/// both its idle and its total limit.
final class WebhookTransport: Sendable {
    private let session: URLSession
    private let url: URL
    private let timeout: Double

    init(configuration: WebhookConfiguration) {
        let settings = URLSessionConfiguration.ephemeral
        settings.httpMaximumConnectionsPerHost = max(configuration.concurrency, 1)
        settings.timeoutIntervalForRequest = configuration.timeout
        settings.timeoutIntervalForResource = configuration.timeout
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.httpCookieStorage = nil
        session = URLSession(configuration: settings, delegate: RedirectRefusal(), delegateQueue: nil)
        url = configuration.url
        timeout = configuration.timeout
    }

    /// One attempt: `POST`s `body` as `application/json`.
    func send(_ body: Data) async -> WebhookAttemptOutcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        do {
            let (_, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                return .retryable(reason: "not an HTTP response", retryAfter: nil)
            }
            return .classify(status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
        } catch let error as URLError where error.code == .cancelled {
            return .cancelled
        } catch is CancellationError {
            return .cancelled
        } catch {
            // Connection refused or reset, DNS, TLS, timeout: any of these may pass, so all are retried.
            return .retryable(reason: error.localizedDescription, retryAfter: nil)
        }
    }

    /// Cancels the requests in flight (they end as ``WebhookAttemptOutcome/cancelled``) and releases the session.
    func cancelAll() {
        session.invalidateAndCancel()
    }

    /// Releases the session once nothing is in flight any more.
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
