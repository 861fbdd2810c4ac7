/// ISO-8601 text for timestamps. STUB.
extension Timestamp {
    /// `2026-11-21T08:00:42Z`, with a fraction (trailing zeros trimmed) only when there is one.
    public var iso8601: String { "\(microseconds)" }
}
