#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

/// A streaming, non-validating XML tokenizer: it is fed a document in chunks of any size and calls its handler
/// for each element and piece of text, checking well-formedness as it goes.
///
/// Memory is bounded by one chunk plus the longest single tag (``maxTokenLength``) plus the open elements'
/// names (at most ``maxDepth``), never by the document: text, comments and CDATA sections are passed on or
/// skipped in pieces, so a 200 MB file costs what one chunk does. The scanner works on raw pointers and finds
/// delimiters with `memchr`, because it has to be fast even in debug builds.
///
/// It reads what real GPX files contain and refuses what could make reading unsafe:
/// - Encodings: UTF-8 (with or without a byte order mark), US-ASCII and ISO-8859-1, which is transcoded to
///   UTF-8 before tokenizing; any other declared encoding, and UTF-16, is an error (see ``XMLEncoding``).
/// - Comments, processing instructions and a DOCTYPE without an internal subset are skipped. A DOCTYPE with
///   an internal subset is refused, since it can declare entities (the "billion laughs" expansion, external
///   entities that fetch files or URLs): this tokenizer never expands or resolves an entity.
/// - Lenient where strictness would only refuse real files: namespace prefixes are not checked against
///   declarations (exporters write `gpxpx:` without declaring it), names are not checked against XML's name
///   characters, and the XML declaration may follow leading whitespace.
/// - Fatal, with line and column: text outside the root element (a file that is not XML), a mismatched or
///   stray end tag, a second root, an attribute given twice in one tag, and a document that ends before its
///   root is closed.
///
/// After an error the tokenizer rethrows it on every call. Positions are those of the UTF-8 text (for an
/// ISO-8859-1 file, columns still count characters).
struct XMLTokenizer: Sendable {
    enum Mode: Sendable {
        /// Before the encoding is known: bytes are held until the byte order mark and declaration are read.
        case prolog
        case content
        case comment
        case cdata
    }

    /// An element whose end tag has not been read yet.
    struct OpenElement: Sendable {
        /// Where its name starts in ``elementNames``.
        var nameStart: Int
        var line: Int
        var column: Int
    }

    /// The longest tag, declaration or processing instruction accepted, in bytes.
    let maxTokenLength: Int
    /// The longest XML declaration (`<?xml … ?>`) accepted, in bytes: it is read before the encoding is known.
    static let maxDeclarationLength = 4096
    /// The deepest nesting of elements accepted.
    let maxDepth: Int

    var mode = Mode.prolog
    var encoding = XMLEncoding.utf8
    /// Bytes of an incomplete token, kept for the next chunk (in the prolog: everything read so far).
    var pending: [UInt8] = []
    /// The offset in the UTF-8 text of the first byte of the buffer being scanned (or of ``pending``).
    var pendingOffset = 0
    var cursor = XMLTextCursor()
    /// The names of the open elements, one after the other, in the first ``namesEnd`` bytes. The array only
    /// grows (to the deepest nesting's names), so that opening and closing elements moves no memory.
    var elementNames: [UInt8] = []
    var namesEnd = 0
    var openElements: [OpenElement] = []
    var rootSeen = false
    var rootClosed = false
    /// Where the XML declaration starts, if the document has one.
    var declarationOffset: Int?
    /// Where the comment or CDATA section being skipped started, for a document that ends inside it.
    var sectionLine = 0
    var sectionColumn = 0
    /// The attributes of the start tag being read: the first ``attributeCount``. Reused for every start tag, so
    /// tags cost no allocation.
    var attributes: [XMLStartTag.Attribute] = []
    var attributeCount = 0
    var failure: InputError?
    var finished = false

    init(maxTokenLength: Int = 1 << 20, maxDepth: Int = 1_000) {
        self.maxTokenLength = max(maxTokenLength, 64)
        self.maxDepth = max(maxDepth, 1)
    }

    /// The bytes held between chunks (for tests of the memory bound).
    var bufferedByteCount: Int { pending.count }

    /// Tokenizes the next chunk of the document, calling `handler` for what it completes.
    mutating func feed<Handler: XMLTokenHandler>(_ chunk: [UInt8], to handler: inout Handler) throws(InputError) {
        if let failure { throw failure }
        guard !finished else { throw InputError("bytes fed after the end of the document") }
        do {
            try process(chunk, final: false, handler: &handler)
        } catch {
            failure = error
            throw error
        }
    }

    /// Ends the document: tokenizes what is held and checks that the root element was read and closed.
    mutating func finish<Handler: XMLTokenHandler>(to handler: inout Handler) throws(InputError) {
        if let failure { throw failure }
        guard !finished else { return }
        do {
            try process([], final: true, handler: &handler)
            try checkEnd()
            finished = true
        } catch {
            failure = error
            throw error
        }
    }

    // MARK: Chunks

    mutating func process<Handler: XMLTokenHandler>(
        _ chunk: [UInt8], final: Bool, handler: inout Handler
    ) throws(InputError) {
        if mode == .prolog {
            pending.append(contentsOf: chunk)
            guard try resolveProlog(final: final) else { return }
            try scanPending(final: final, handler: &handler)
            return
        }
        let bytes = encoding == .latin1 && !chunk.isEmpty ? XMLEncoding.utf8(fromLatin1: chunk[...]) : chunk
        if pending.isEmpty {
            // The common case: nothing held over, so the chunk is scanned where it is, without a copy.
            try scanInPlace(bytes, from: 0, final: final, handler: &handler)
        } else if bytes.isEmpty {
            try scanPending(final: final, handler: &handler)
        } else {
            // The token held over is completed with the chunk's first bytes, copied behind it in windows that
            // double (4 KiB first: a tag cut by the previous chunk's end); once what was held is consumed, the
            // rest of the chunk is scanned where it is. Copying the whole chunk behind the held bytes, as once,
            // moved two bytes per byte read. Where chunks end never changes what is read, so neither does this.
            var appended = 0
            var window = 1 << 12
            while appended < bytes.count {
                let end = min(bytes.count, appended + window)
                pending.append(contentsOf: bytes[appended..<end])
                try scanPending(final: final && end == bytes.count, handler: &handler)
                if pending.count <= end {
                    // What is still held is the chunk's own bytes: scan from them on, in place.
                    let restart = end - pending.count
                    pending = []
                    try scanInPlace(bytes, from: restart, final: final, handler: &handler)
                    return
                }
                appended = end
                window *= 2
            }
        }
    }

    /// Scans `bytes` from `start` where they are, keeping what is not consumed for the next chunk.
    mutating func scanInPlace<Handler: XMLTokenHandler>(
        _ bytes: [UInt8], from start: Int, final: Bool, handler: inout Handler
    ) throws(InputError) {
        let consumed = try bytes.withUnsafeBufferPointer { (buffer) throws(InputError) -> Int in
            guard let base = buffer.baseAddress, start < buffer.count else { return 0 }
            return try scan(base + start, count: buffer.count - start, final: final, handler: &handler)
        }
        if start + consumed < bytes.count { pending = Array(bytes[(start + consumed)...]) }
    }

    mutating func scanPending<Handler: XMLTokenHandler>(final: Bool, handler: inout Handler) throws(InputError) {
        var buffer: [UInt8] = []
        swap(&buffer, &pending)
        let consumed = try scan(buffer, final: final, handler: &handler)
        buffer.removeFirst(consumed)
        pending = buffer
    }

    /// Scans `buffer`, whose first byte is at ``pendingOffset``, and returns how many bytes it consumed.
    mutating func scan<Handler: XMLTokenHandler>(
        _ buffer: [UInt8], final: Bool, handler: inout Handler
    ) throws(InputError) -> Int {
        try buffer.withUnsafeBufferPointer { (bytes) throws(InputError) -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            return try scan(base, count: bytes.count, final: final, handler: &handler)
        }
    }

    mutating func scan<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, count n: Int, final: Bool, handler: inout Handler
    ) throws(InputError) -> Int {
        var i = 0
        scanning: while i < n {
            switch mode {
            case .comment:
                guard let end = Self.find(0x2D, 0x2D, 0x3E, in: p, from: i, to: n) else {  // -->
                    if final { throw unterminated("a comment", atEndOf: p, count: n) }
                    i = max(i, n - 2)  // "--" may be completed by the next chunk
                    break scanning
                }
                i = end + 3
                mode = .content
            case .cdata:
                guard let end = Self.find(0x5D, 0x5D, 0x3E, in: p, from: i, to: n) else {  // ]]>
                    if final { throw unterminated("a CDATA section", atEndOf: p, count: n) }
                    let keep = max(i, n - 2)
                    if keep > i { try handler.characters(UnsafeBufferPointer(start: p + i, count: keep - i), isCDATA: true) }
                    i = keep
                    break scanning
                }
                if end > i { try handler.characters(UnsafeBufferPointer(start: p + i, count: end - i), isCDATA: true) }
                i = end + 3
                mode = .content
            case .content, .prolog:
                if p[i] != 0x3C {  // <
                    i = try text(p, from: i, count: n, final: final, handler: &handler)
                    if i < n && p[i] != 0x3C { break scanning }  // a reference held back for the next chunk
                    continue
                }
                if handler.readsPlainElements, let end = plainElement(p, at: i, count: n, handler: &handler) {
                    i = end
                    continue
                }
                // A tag is read no further than its length limit, so that what is found in it (its end, an error, or
                // that it is too long) never depends on where the chunks end.
                guard let end = try markup(p, at: i, count: min(n, i + maxTokenLength), handler: &handler) else {
                    guard n - i <= maxTokenLength else {
                        throw error("a tag longer than \(maxTokenLength) bytes (or one that is never closed with \">\")", at: i, p)
                    }
                    if final { throw error("the document ends inside a tag (the file is truncated)", at: i, p) }
                    break scanning
                }
                i = end
            }
        }
        cursor.advance(to: pendingOffset + i, base: p, baseOffset: pendingOffset)
        pendingOffset += i
        return i
    }


    // MARK: End

    func checkEnd() throws(InputError) {
        switch mode {
        case .comment: throw unterminated("a comment")
        case .cdata: throw unterminated("a CDATA section")
        case .prolog, .content: break
        }
        if let open = openElements.last {
            let name = String(decoding: elementNames[open.nameStart..<namesEnd], as: UTF8.self)
            throw InputError(
                "the document ends before </\(name)> (<\(name)> opened at line \(open.line), column \(open.column) "
                    + "is not closed): the file is truncated or an end tag is missing",
                line: cursor.line, column: cursor.column, field: name)
        }
        guard rootSeen else {
            throw InputError(
                "the document has no root element (the file is empty or not XML)", line: cursor.line,
                column: cursor.column)
        }
    }

    /// An error for a document that ends inside a comment or CDATA section, at the end of the buffer `p`.
    mutating func unterminated(_ what: String, atEndOf p: UnsafePointer<UInt8>, count n: Int) -> InputError {
        cursor.advance(to: pendingOffset + n, base: p, baseOffset: pendingOffset)
        return unterminated(what)
    }

    func unterminated(_ what: String) -> InputError {
        InputError(
            "the document ends inside \(what) opened at line \(sectionLine), column \(sectionColumn)",
            line: cursor.line, column: cursor.column)
    }
}
