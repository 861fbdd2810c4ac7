import GeofenceKit

/// Reads a GPX document (1.0 or 1.1) fed in chunks of any size, and reports what it holds as ``GPXEvent``s.
///
/// A push parser, like ``LineSplitter``: the caller reads the file however it likes (1 MiB at a time, from a
/// socket…) and feeds the bytes; memory stays bounded by one chunk plus the longest single tag (at most
/// `maxTokenLength`, 1 MiB by default), whatever the document's size. It is pure: no I/O, no Foundation.
///
/// ```swift
/// var reader = GPXReader()
/// for chunk in chunks { for event in try reader.feed(chunk) { … } }
/// for event in try reader.finish() { … }
/// ```
///
/// What it accepts, and what it refuses:
/// - XML as real files write it: with or without the XML declaration, a UTF-8 byte order mark, declared
///   encodings UTF-8, US-ASCII and ISO-8859-1 (transcoded), comments, processing instructions, CDATA, the five
///   predefined entities and character references. Any other encoding is an error.
/// - Lenient about namespaces: elements and attributes are matched by local name, prefixes are ignored and need
///   not be declared (gpx.studio writes `gpxpx:` without declaring it), and the root's `xmlns` and `version` may be
///   missing. Extensions and unknown elements of any depth are skipped; so are values GPX readers often choke on
///   but playback does not use (`<fix>something_not_in_the_spec</fix>`).
/// - Points with a missing, non-numeric, non-finite or out-of-range `lat`/`lon`, or a `<time>` that is not an
///   ISO-8601 time, are reported as ``GPXEvent/invalidPoint(_:_:)`` and reading goes on. A time without a zone
///   is UTC (GPX times are UTC by definition). An `<ele>` that is not a number is dropped with a
///   ``GPXEvent/warning(_:)``.
/// - Fatal, thrown as ``InputError`` with line and column: text that is not XML, a mismatched end tag, a root
///   that is not `<gpx>`, content after the root, a document that ends before its root is closed, a tag longer
///   than `maxTokenLength`, and a DOCTYPE with an internal subset (entity declarations are refused; entities are
///   never expanded and nothing external is ever fetched). After a fatal error every call rethrows it.
///
/// Errors carry no file name: the caller adds it with ``InputError/in(file:)``.

public struct GPXReader: Sendable {
    private var tokenizer: XMLTokenizer
    private var builder = GPXEventBuilder()

    /// - Parameter maxTokenLength: the longest single tag accepted, in bytes (at least 64).
    public init(maxTokenLength: Int = 1 << 20) {
        tokenizer = XMLTokenizer(maxTokenLength: maxTokenLength)
    }

    /// A reader that, when `readsPlainTrackPoints` is false, reads every track point through the tokenizer, never
    /// in one pass (``GPXPlainTrackPoint``): for the tests that compare the two.
    init(maxTokenLength: Int = 1 << 20, readsPlainTrackPoints: Bool) {
        self.init(maxTokenLength: maxTokenLength)
        builder.readsPlainTrackPoints = readsPlainTrackPoints
    }

    /// Reads the next chunk and returns the events it completes.
    /// - Throws: ``InputError`` when the document is not well-formed GPX.
    public mutating func feed(_ chunk: [UInt8]) throws(InputError) -> [GPXEvent] {
        var events: [GPXEvent] = []
        try feed(chunk, into: &events)
        return events
    }

    /// Reads the next chunk and appends the events it completes to `events`, reusing its storage. When it
    /// throws, the events read before the error have been appended.
    public mutating func feed(_ chunk: [UInt8], into events: inout [GPXEvent]) throws(InputError) {
        swap(&events, &builder.events)
        defer { swap(&events, &builder.events) }
        try tokenizer.feed(chunk, to: &builder)
    }

    /// Ends the document and returns its last events.
    /// - Throws: ``InputError`` when the document is truncated or has no root element.
    public mutating func finish() throws(InputError) -> [GPXEvent] {
        var events: [GPXEvent] = []
        try finish(into: &events)
        return events
    }

    /// Ends the document, appending its last events to `events` (also when it throws).
    public mutating func finish(into events: inout [GPXEvent]) throws(InputError) {
        swap(&events, &builder.events)
        defer { swap(&events, &builder.events) }
        try tokenizer.finish(to: &builder)
    }

    /// The events of a whole document held in memory.
    public static func events(in document: [UInt8]) throws(InputError) -> [GPXEvent] {
        var reader = GPXReader()
        var events: [GPXEvent] = []
        try reader.feed(document, into: &events)
        try reader.finish(into: &events)
        return events
    }

    /// Bytes held between chunks: at most the longest tag plus one chunk (for tests of the memory bound).
    var bufferedByteCount: Int { tokenizer.bufferedByteCount }
}
