import Foundation

/// The `Retry-After` response header (RFC 9110 §10.2.3): either a number of seconds or an HTTP-date.
///
/// A receiver that says when to come back knows its own load better than any backoff formula, so its
/// answer replaces the computed wait on 429 and 503.
enum RetryAfter {
    /// Seconds to wait from `now`, never negative; `nil` when `value` is neither form.
    static func seconds(from value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits only: delta-seconds. An absurdly long number still means "a long time".
            return Double(trimmed) ?? .greatestFiniteMagnitude
        }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// The three date formats RFC 9110 requires a recipient to accept: IMF-fixdate, obsolete RFC 850, asctime.
    private static let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    private static func httpDate(_ text: String) -> Date? {
        for format in formats {
            // A formatter per call: DateFormatter is not Sendable, and a Retry-After is rare enough.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
