import Foundation

/// Sends one batch body and classifies the answer: `http://` URLs through ``PlainHTTPClient`` (a socket of its
/// own, one deadline, bounded reading, no way for an answer to crash the process), `https://` URLs through
/// ``HTTPSTransport``, since TLS is only available through FoundationNetworking (loaded only then: see
/// ``HTTPSLibrary``).
final class WebhookTransport: Sendable {
    private enum Route: Sendable {
        case plain(PlainHTTPClient)
        case session(HTTPSTransport)
    }

    private let route: Route

    init(configuration: WebhookConfiguration) {
        if configuration.url.scheme?.lowercased() == "http" {
            route = .plain(PlainHTTPClient(url: configuration.url, timeout: configuration.timeout))
        } else {
            // The configuration has checked that the library loads (see ``WebhookConfiguration``).
            route = .session(HTTPSTransport(configuration: configuration, library: try! HTTPSLibrary.shared.get()))
        }
    }

    /// One attempt: `POST`s `body` as `application/json`.
    func send(_ body: Data) async -> WebhookAttemptOutcome {
        switch route {
        case .plain(let client):
            switch await client.post(body) {
            case .answered(let head, _):
                return .classify(status: head.status, retryAfter: head.value(for: "Retry-After"))
            case .failed(let reason):
                // A refused or reset connection, a timeout, a malformed or missing answer: any may pass.
                return .retryable(reason: reason, retryAfter: nil)
            case .cancelled:
                return .cancelled
            }
        case .session(let transport):
            return await transport.send(body)
        }
    }

    /// Cancels the requests in flight (they end as ``WebhookAttemptOutcome/cancelled``) and refuses new ones.
    func cancelAll() {
        switch route {
        case .plain(let client): client.cancelAll()
        case .session(let transport): transport.cancelAll()
        }
    }

    /// Releases the transport once no request is in flight any more.
    func invalidate() {
        if case .session(let transport) = route { transport.invalidate() }
    }
}
