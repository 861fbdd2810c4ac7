import Foundation

/// Seconds since creation, from the monotonic clock.
struct MonotonicTestClock: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds

    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}

/// The event objects of a JSON array body, each re-serialized with sorted keys so that equal events compare
/// equal as text; an element that is not an object, or a body that is not an array, yields a marker that
/// never matches an event.
func canonicalEvents(inArray body: [UInt8]) -> [String] {
    guard let array = try? JSONSerialization.jsonObject(with: Data(body)) as? [Any] else { return ["<not a JSON array>"] }
    return array.map(canonicalJSON)
}

/// One NDJSON line (or array element) as canonical JSON text.
func canonicalJSON(_ object: Any) -> String {
    guard JSONSerialization.isValidJSONObject(object),
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    else { return "<not a JSON object>" }
    return String(decoding: data, as: UTF8.self)
}

/// The canonical form of each NDJSON line.
func canonicalEvents(inLines lines: [String]) -> [String] {
    lines.map { line in
        canonicalJSON((try? JSONSerialization.jsonObject(with: Data(line.utf8))) ?? "<not JSON>")
    }
}
