import Foundation

/// How a ``WebhookSink`` delivers events: where to, in what batches, how many at once, and how hard it tries
/// before it writes a batch to the dead-letter file instead.
///
/// The defaults suit a local or LAN receiver: 500 events per request keeps bodies around 60 KB, four requests
/// in flight hide the round trip without overwhelming a small service, and five attempts with at most 1.5 s
/// of backoff in all ride out a dropped connection or a short overload; a longer outage ends in the
/// dead-letter file rather than stalling the run.
public struct WebhookConfiguration: Sendable {
    /// Where every batch is `POST`ed; its scheme is `http` or `https` (checked by the initializers).
    public let url: URL
    /// Events per request, at least 1.
    public var batchSize: Int
    /// Seconds a partial batch may wait for more events before it is sent anyway, so that a quiet stream
    /// still reaches the receiver promptly.
    public var linger: Double
    /// Requests in flight at most (at least 1); `write` suspends while all are busy.
    public var concurrency: Int
    /// Seconds one attempt may take, connection included, before it counts as a (retryable) timeout.
    public var timeout: Double
    /// Attempts per batch, the first included (at least 1), before the batch is dead-lettered.
    public var maxAttempts: Int
    public var backoff: WebhookBackoff
    /// Longest `Retry-After` honoured, in seconds: a longer one is shortened to this, so a misconfigured
    /// receiver cannot stall a run for hours.
    public var maxRetryAfter: Double
    /// The NDJSON file undeliverable events are appended to; `nil` means ``defaultDeadLetterPath``.
    public var deadLetterPath: String?
    /// Seconds `close()` waits for queued and in-flight deliveries before it dead-letters what is left.
    public var gracePeriod: Double

    /// The dead-letter file when none is configured, relative to the current directory. It is created only
    /// when an event is actually dead-lettered, so a healthy run leaves no file behind.
    public static let defaultDeadLetterPath = "webhook-dead-letter.ndjson"

    /// - Throws: ``WebhookConfigurationError`` unless `url` is an `http` or `https` URL with a host, or when it is an
    ///   `https` URL and ``HTTPSLibrary`` cannot be loaded.
    public init(
        url: URL, batchSize: Int = 500, linger: Double = 0.05, concurrency: Int = 4, timeout: Double = 10,
        maxAttempts: Int = 5, backoff: WebhookBackoff = WebhookBackoff(), maxRetryAfter: Double = 60,
        deadLetterPath: String? = nil, gracePeriod: Double = 10
    ) throws {
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw WebhookConfigurationError(
                url: url.absoluteString,
                message: scheme.isEmpty
                    ? "the webhook URL needs a scheme: only http:// and https:// are supported"
                    : "unsupported scheme '\(scheme)': only http:// and https:// are supported")
        }
        guard let host = url.host, !host.isEmpty else {
            throw WebhookConfigurationError(url: url.absoluteString, message: "the webhook URL has no host")
        }
        if scheme == "https", case .failure(let error) = HTTPSLibrary.shared {
            throw WebhookConfigurationError(url: url.absoluteString, message: error.description)
        }
        self.url = url
        self.batchSize = batchSize
        self.linger = linger
        self.concurrency = concurrency
        self.timeout = timeout
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.maxRetryAfter = maxRetryAfter
        self.deadLetterPath = deadLetterPath
        self.gracePeriod = gracePeriod
    }

    /// Parses `string` as the URL first, for a command-line flag or a config value.
    /// - Throws: ``WebhookConfigurationError`` when `string` is not an `http` or `https` URL.
    public init(url string: String, deadLetterPath: String? = nil) throws {
        guard let url = URL(string: string) else {
            throw WebhookConfigurationError(url: string, message: "not a valid URL")
        }
        try self.init(url: url, deadLetterPath: deadLetterPath)
    }

    /// The dead-letter file actually used.
    public var resolvedDeadLetterPath: String { deadLetterPath ?? Self.defaultDeadLetterPath }

    /// The settings with every number brought into its valid range, so a sink never divides by zero or
    /// waits forever on a zero concurrency.
    var normalized: WebhookConfiguration {
        var copy = self
        copy.batchSize = max(1, batchSize)
        copy.concurrency = max(1, concurrency)
        copy.maxAttempts = max(1, maxAttempts)
        copy.linger = linger.isFinite ? max(0, linger) : 0.05
        copy.timeout = timeout.isFinite && timeout > 0 ? timeout : 10
        copy.gracePeriod = gracePeriod.isFinite ? max(0, gracePeriod) : 10
        copy.maxRetryAfter = maxRetryAfter.isFinite ? max(0, maxRetryAfter) : 60
        return copy
    }
}
