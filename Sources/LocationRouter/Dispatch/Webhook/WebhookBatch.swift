import Foundation

/// One request's worth of events, kept in both forms it is needed in: the JSON array that is `POST`ed and
/// the original NDJSON lines that go to the dead-letter file if it cannot be delivered.
///
/// Keeping the lines (rather than re-deriving them from the body) makes the dead-letter file byte-identical
/// to what the pipeline emitted, which is what a replay tool expects.
struct WebhookBatch: Sendable {
    /// Unique within a sink; the ledger settles each batch once by it.
    let id: UInt64
    /// Events in the batch.
    let events: Int
    /// The events as NDJSON, each line ending in a newline.
    let lines: [UInt8]
    /// `[` + the lines joined with commas + `]`.
    let body: Data

    init(id: UInt64, events: Int, lines: [UInt8]) {
        self.id = id
        self.events = events
        self.lines = lines
        body = Self.jsonArray(of: lines)
    }

    /// The lines as one JSON array. A line never holds a raw newline (JSON escapes control characters), so
    /// every newline is a separator and becomes a comma, and the last one the closing bracket.
    static func jsonArray(of lines: [UInt8]) -> Data {
        var body = [UInt8]()
        body.reserveCapacity(lines.count + 2)
        body.append(UInt8(ascii: "["))
        for byte in lines { body.append(byte == UInt8(ascii: "\n") ? UInt8(ascii: ",") : byte) }
        if body.count > 1 { body.removeLast() }
        body.append(UInt8(ascii: "]"))
        return Data(body)
    }
}
