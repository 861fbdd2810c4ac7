/// What one `POST` of a batch came to, and so what happens to the batch next.
enum WebhookAttemptOutcome: Sendable, Equatable {
    /// A 2xx answer: the receiver has the events.
    case delivered
    /// Worth another attempt: a connection error, a timeout, 429 or 5xx. `retryAfter` is the receiver's own
    /// wait in seconds (from `Retry-After` on 429 and 503), which replaces the backoff.
    case retryable(reason: String, retryAfter: Double?)
    /// Any other answer (other 4xx, and 1xx or 3xx since redirects are not followed): the same body would be
    /// refused again, so the batch goes straight to the dead-letter file.
    case rejected(reason: String)
    /// The sink gave up on the attempt at the end of the grace period.
    case cancelled

    /// The meaning of an HTTP answer; `retryAfter` is the raw `Retry-After` header, if any.
    static func classify(status: Int, retryAfter: String?) -> WebhookAttemptOutcome {
        switch status {
        case 200...299:
            return .delivered
        case 429, 503:
            return .retryable(reason: "HTTP \(status)", retryAfter: retryAfter.flatMap { RetryAfter.seconds(from: $0) })
        case 500...599:
            return .retryable(reason: "HTTP \(status)", retryAfter: nil)
        default:
            return .rejected(reason: "HTTP \(status)")
        }
    }
}
