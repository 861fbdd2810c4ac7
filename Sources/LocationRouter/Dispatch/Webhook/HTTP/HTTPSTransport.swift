import Foundation

/// Sends one batch body to an `https://` URL through ``HTTPSSession`` (a `URLSession` in ``HTTPSLibrary``) and
/// classifies the answer.
///
/// There is no TLS in the toolchain outside FoundationNetworking, so `https` keeps its limits: an answer that
/// libcurl completes without a response ends the process with a fatal error, and the body of an answer is
/// buffered whole (up to the deadline). `http` URLs go through ``PlainHTTPClient`` instead, which has neither
/// problem.
///
/// The session allows at least as many connections to the host as the sink has requests in flight (fewer would
/// queue requests inside the session, where the concurrency limit cannot see them) and follows no redirect.
/// Each request ends at the configured timeout, however slowly its answer trickles in.
final class HTTPSTransport: Sendable {
    private let session: HTTPSSession
    private let timeout: Double

    init(configuration: WebhookConfiguration, library: HTTPSLibrary) {
        session = HTTPSSession(
            library: library, url: configuration.url, contentType: "application/json", timeout: configuration.timeout,
            connections: configuration.concurrency, refuseRedirects: true)
        timeout = configuration.timeout
    }

    /// One attempt: `POST`s `body` as `application/json`.
    func send(_ body: Data) async -> WebhookAttemptOutcome {
        switch await session.post(body, deadline: timeout) {
        case .answered(let status, let retryAfter): .classify(status: status, retryAfter: retryAfter)
        // Connection refused or reset, DNS, TLS, timeout: any of these may pass, so all are retried.
        case .failed(let reason): .retryable(reason: reason, retryAfter: nil)
        case .expired: .retryable(reason: "no complete answer within \(timeout) s", retryAfter: nil)
        case .cancelled: .cancelled
        }
    }

    /// Cancels the requests in flight (they end as ``WebhookAttemptOutcome/cancelled``), refuses new ones, and
    /// releases the session.
    func cancelAll() { session.cancelAll() }

    func invalidate() { session.invalidate() }
}
