/// Cuts a stream of NDJSON bytes into batches of at most `batchSize` events.
///
/// Full batches leave as soon as they fill; the rest waits as a partial batch until more events arrive, the
/// linger timer cuts it, or the sink closes. Bytes after the last newline of a write are kept until a later
/// write completes the line, so a caller that splits a line across writes loses nothing either.
struct WebhookBatchBuilder: Sendable {
    let batchSize: Int
    private var lines: [UInt8] = []
    private var events = 0
    private var fragment: [UInt8] = []
    private var nextID: UInt64 = 0

    init(batchSize: Int) {
        self.batchSize = max(1, batchSize)
    }

    /// Events waiting in the partial batch.
    var pendingEvents: Int { events }

    /// Takes in `bytes` and returns the batches they filled. Blank lines are skipped: they are no event.
    mutating func append(_ bytes: [UInt8]) -> [WebhookBatch] {
        var full: [WebhookBatch] = []
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if fragment.isEmpty {
                add(bytes[start..<newline], into: &full)
            } else {
                fragment.append(contentsOf: bytes[start..<newline])
                let line = fragment
                fragment.removeAll()
                add(line[...], into: &full)
            }
            start = newline + 1
        }
        fragment.append(contentsOf: bytes[start...])
        return full
    }

    /// The partial batch, if it holds any event.
    mutating func cutPartial() -> WebhookBatch? {
        guard events > 0 else { return nil }
        return cut()
    }

    /// At the end of the stream: an unterminated last line counts as a line, then the partial batch is cut.
    mutating func finish() -> [WebhookBatch] {
        var batches: [WebhookBatch] = []
        if !fragment.isEmpty {
            let line = fragment
            fragment.removeAll()
            add(line[...], into: &batches)
        }
        if let partial = cutPartial() { batches.append(partial) }
        return batches
    }

    private mutating func add(_ line: ArraySlice<UInt8>, into full: inout [WebhookBatch]) {
        guard !line.isEmpty else { return }
        lines.append(contentsOf: line)
        lines.append(UInt8(ascii: "\n"))
        events += 1
        if events >= batchSize { full.append(cut()) }
    }

    private mutating func cut() -> WebhookBatch {
        nextID += 1
        let batch = WebhookBatch(id: nextID, events: events, lines: lines)
        lines = []
        events = 0
        return batch
    }
}
