/// What a ``WebhookSink`` did with the events it was given; complete once `close()` has returned.
///
/// Every event handed to `write` ends up in exactly one of `delivered`, `deadLettered` or `lost`, so after
/// close `delivered + deadLettered + lost == accepted`, and `lost` is 0 unless `close()` threw.
public struct WebhookStatistics: Sendable, Equatable {
    /// Events handed to `write` (blank lines aside).
    public var accepted = 0
    /// Events in batches that were answered with 2xx.
    public var delivered = 0
    /// Requests answered with 2xx.
    public var deliveredRequests = 0
    /// Repeated attempts: every `POST` of a batch after its first.
    public var retries = 0
    /// Events appended to the dead-letter file.
    public var deadLettered = 0
    /// Requests (batches) given up on: refused with a non-retryable status, out of attempts, or still
    /// undelivered when the grace period of `close()` ran out.
    public var failedRequests = 0
    /// Events that could be neither delivered nor appended to the dead-letter file; `close()` throws if any.
    public var lost = 0
    /// Why the latest attempt that failed did (`connection refused`, `HTTP 503`, a timeout); `nil` when none did.
    /// A run whose events were dead-lettered says why, where the counts alone did not.
    public var lastFailure: String?
    /// How often `write` had to wait because every request slot was busy (back-pressure at work).
    public var writeWaits = 0
    /// Per delivered request, from the start of its first attempt to its 2xx answer, in nanoseconds (retries
    /// and their backoff included).
    public var latency = LatencyHistogram()

    public init() {}
}
