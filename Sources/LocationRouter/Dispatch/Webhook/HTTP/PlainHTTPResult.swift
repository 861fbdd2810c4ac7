/// How one exchange of ``PlainHTTPClient`` ended.
enum PlainHTTPResult: Sendable, Equatable {
    /// A well-formed final answer; `bodyBytes` of its body were read (at most the limit) and discarded.
    case answered(HTTPResponseHead, bodyBytes: Int)
    /// No usable answer: the connection failed, timed out, or the answer was malformed or truncated.
    case failed(String)
    /// The exchange was cancelled.
    case cancelled
}
