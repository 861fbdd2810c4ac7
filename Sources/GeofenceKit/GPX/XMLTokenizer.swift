#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    private enum Mode: Sendable {
        /// Before the encoding is known: bytes are held until the byte order mark and declaration are read.
        case prolog
        case content
        case comment
        case cdata
    }

    /// An element whose end tag has not been read yet.
    private struct OpenElement: Sendable {
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

    private var mode = Mode.prolog
    private var encoding = XMLEncoding.utf8
    /// Bytes of an incomplete token, kept for the next chunk (in the prolog: everything read so far).
    private var pending: [UInt8] = []
    /// The offset in the UTF-8 text of the first byte of the buffer being scanned (or of ``pending``).
    private var pendingOffset = 0
    private var cursor = XMLTextCursor()
    /// The names of the open elements, one after the other, in the first ``namesEnd`` bytes. The array only
    /// grows (to the deepest nesting's names), so that opening and closing elements moves no memory.
    private var elementNames: [UInt8] = []
    private var namesEnd = 0
    private var openElements: [OpenElement] = []
    private var rootSeen = false
    private var rootClosed = false
    /// Where the XML declaration starts, if the document has one.
    private var declarationOffset: Int?
    /// Where the comment or CDATA section being skipped started, for a document that ends inside it.
    private var sectionLine = 0
    private var sectionColumn = 0
    /// Reused for every start tag, so tags cost no allocation.
    private var attributes: [XMLStartTag.Attribute] = []
    private var failure: InputError?
    private var finished = false

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

    private mutating func process<Handler: XMLTokenHandler>(
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
            let consumed = try scan(bytes, final: final, handler: &handler)
            if consumed < bytes.count { pending = Array(bytes[consumed...]) }
        } else {
            pending.append(contentsOf: bytes)
            try scanPending(final: final, handler: &handler)
        }
    }

    private mutating func scanPending<Handler: XMLTokenHandler>(final: Bool, handler: inout Handler) throws(InputError) {
        var buffer: [UInt8] = []
        swap(&buffer, &pending)
        let consumed = try scan(buffer, final: final, handler: &handler)
        buffer.removeFirst(consumed)
        pending = buffer
    }

    /// Scans `buffer`, whose first byte is at ``pendingOffset``, and returns how many bytes it consumed.
    private mutating func scan<Handler: XMLTokenHandler>(
        _ buffer: [UInt8], final: Bool, handler: inout Handler
    ) throws(InputError) -> Int {
        try buffer.withUnsafeBufferPointer { (bytes) throws(InputError) -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            return try scan(base, count: bytes.count, final: final, handler: &handler)
        }
    }

    private mutating func scan<Handler: XMLTokenHandler>(
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

    // MARK: Tokens

    /// Passes on the text from `i` up to the next `<` and returns where it stopped: at the `<`, at the end, or
    /// (when more chunks follow) before a reference that the chunk cuts, so pieces never split a reference.
    private mutating func text<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, from i: Int, count n: Int, final: Bool, handler: inout Handler
    ) throws(InputError) -> Int {
        let next = Self.find(0x3C, in: p, from: i, to: n)
        var end = next ?? n
        if next == nil && !final {
            // Hold back from the first "&" whose reference the next chunk could still complete: one with no ";"
            // after it and whose window for the ";" (``XMLEntityDecoder/referenceWindow``) passes the end.
            var k = n - 1
            let limit = max(i, n - XMLEntityDecoder.referenceWindow)
            while k >= limit {
                if p[k] == 0x3B { break }  // ;
                if p[k] == 0x26 { end = k }  // &
                k -= 1
            }
        }
        guard end > i else { return end }
        if openElements.isEmpty {
            var k = i
            while k < end && Self.isSpace(p[k]) { k += 1 }
            if k < end {
                throw error(
                    rootClosed ? "text after the end of the root element"
                        : "expected \"<\": this is not an XML document (is it a GPX file?)", at: k, p)
            }
        } else {
            try handler.characters(UnsafeBufferPointer(start: p + i, count: end - i), isCDATA: false)
        }
        return end
    }

    /// Reads the markup at `i` (a `<`) and returns the offset after it, or `nil` when the chunk ends inside it.
    private mutating func markup<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, at i: Int, count n: Int, handler: inout Handler
    ) throws(InputError) -> Int? {
        guard i + 1 < n else { return nil }
        switch p[i + 1] {
        case 0x2F: return try endTag(p, at: i, count: n, handler: &handler)  // </
        case 0x3F: return try processingInstruction(p, at: i, count: n)  // <?
        case 0x21: return try declaration(p, at: i, count: n)  // <!
        default: return try startTag(p, at: i, count: n, handler: &handler)
        }
    }

    private mutating func startTag<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, at i: Int, count n: Int, handler: inout Handler
    ) throws(InputError) -> Int? {
        var j = i + 1
        var localNameStart = j
        while j < n {
            let c = p[j]
            if Self.endsName(c) { break }
            if c == 0x3A && localNameStart == i + 1 { localNameStart = j + 1 }  // the first colon
            j += 1
        }
        guard j < n else { return nil }
        let nameEnd = j
        guard nameEnd > i + 1 else { throw error("expected an element name after \"<\"", at: i, p) }
        if localNameStart == nameEnd { localNameStart = i + 1 }  // "a:" has no local part: use it whole
        if !attributes.isEmpty { attributes.removeAll(keepingCapacity: true) }
        var selfClosing = false
        while true {
            while j < n && Self.isSpace(p[j]) { j += 1 }
            guard j < n else { return nil }
            let c = p[j]
            if c == 0x3E {  // >
                j += 1
                break
            }
            if c == 0x2F {  // />
                guard j + 1 < n else { return nil }
                guard p[j + 1] == 0x3E else { throw error("expected \">\" after \"/\" in <\(name(p, i + 1, nameEnd))>", at: j, p) }
                j += 2
                selfClosing = true
                break
            }
            let attributeStart = j
            var attributeLocalStart = j
            while j < n {
                let c = p[j]
                if Self.endsName(c) { break }
                if c == 0x3A && attributeLocalStart == attributeStart { attributeLocalStart = j + 1 }
                j += 1
            }
            guard j < n else { return nil }
            let attributeEnd = j
            guard attributeEnd > attributeStart else {
                throw error("unexpected \"\(Self.character(p[j]))\" in <\(name(p, i + 1, nameEnd))>", at: j, p)
            }
            if attributeLocalStart == attributeEnd { attributeLocalStart = attributeStart }
            while j < n && Self.isSpace(p[j]) { j += 1 }
            guard j < n else { return nil }
            guard p[j] == 0x3D else {  // =
                throw error("attribute \(name(p, attributeStart, attributeEnd)) has no value (expected \"=\")", at: attributeStart, p)
            }
            j += 1
            while j < n && Self.isSpace(p[j]) { j += 1 }
            guard j < n else { return nil }
            let quote = p[j]
            guard quote == 0x22 || quote == 0x27 else {
                throw error("the value of attribute \(name(p, attributeStart, attributeEnd)) must be in quotes", at: j, p)
            }
            guard let close = Self.find(quote, in: p, from: j + 1, to: n) else { return nil }
            // A repeated attribute (two `lat`s on one point) is not well-formed XML, and which one counts is a guess.
            let length = attributeEnd - attributeStart
            for earlier in attributes where earlier.name.count == length
                && memcmp(p + i + earlier.name.lowerBound, p + attributeStart, length) == 0
            {
                throw error(
                    "attribute \(name(p, attributeStart, attributeEnd)) appears twice in <\(name(p, i + 1, nameEnd))>",
                    at: attributeStart, p)
            }
            attributes.append(
                XMLStartTag.Attribute(
                    name: (attributeStart - i)..<(attributeEnd - i), localNameStart: attributeLocalStart - i,
                    value: (j + 1 - i)..<(close - i)))
            j = close + 1
        }

        if rootClosed {
            throw error("a second root element <\(name(p, i + 1, nameEnd))> after the end of the first", at: i, p)
        }
        guard openElements.count < maxDepth else {
            throw error("elements are nested more than \(maxDepth) deep", at: i, p)
        }
        let (line, column) = position(at: i, p)
        let tag = XMLStartTag(
            bytes: UnsafeBufferPointer(start: p + i, count: j - i), name: 1..<(nameEnd - i),
            localNameStart: localNameStart - i, attributes: attributes, line: line, column: column)
        rootSeen = true
        if selfClosing {
            try handler.startElement(tag)
            try handler.endElement()
            if openElements.isEmpty { rootClosed = true }
        } else {
            openElements.append(OpenElement(nameStart: namesEnd, line: line, column: column))
            pushName(p + i + 1, count: nameEnd - i - 1)
            try handler.startElement(tag)
        }
        return j
    }

    private mutating func endTag<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, at i: Int, count n: Int, handler: inout Handler
    ) throws(InputError) -> Int? {
        var j = i + 2
        while j < n && !Self.endsName(p[j]) { j += 1 }
        let nameEnd = j
        while j < n && Self.isSpace(p[j]) { j += 1 }
        guard j < n else { return nil }
        guard p[j] == 0x3E else { throw error("expected \">\" to end </\(name(p, i + 2, nameEnd))", at: j, p) }
        guard let open = openElements.last else {
            throw error("end tag </\(name(p, i + 2, nameEnd))> without a start tag", at: i, p)
        }
        let length = nameEnd - i - 2
        let matches = namesEnd - open.nameStart == length
            && elementNames.withUnsafeBufferPointer { names in
                guard let names = names.baseAddress else { return length == 0 }
                return memcmp(names + open.nameStart, p + i + 2, length) == 0
            }
        guard matches else {
            let openName = String(decoding: elementNames[open.nameStart..<namesEnd], as: UTF8.self)
            var mismatch = error(
                "end tag </\(name(p, i + 2, nameEnd))> does not match <\(openName)> (opened at line \(open.line), column \(open.column))",
                at: i, p)
            mismatch.field = openName
            throw mismatch
        }
        openElements.removeLast()
        namesEnd = open.nameStart
        if openElements.isEmpty { rootClosed = true }
        try handler.endElement()
        return j + 1
    }

    private mutating func processingInstruction(_ p: UnsafePointer<UInt8>, at i: Int, count n: Int) throws(InputError) -> Int? {
        guard let close = Self.find(0x3F, 0x3E, in: p, from: i + 2, to: n) else { return nil }  // ?>
        var j = i + 2
        while j < close && !Self.isSpace(p[j]) { j += 1 }
        let target = name(p, i + 2, j)
        if target.lowercased() == "xml" && pendingOffset + i != declarationOffset {
            throw error("the XML declaration <?xml …?> is only allowed at the start of the document", at: i, p)
        }
        return close + 2
    }

    private mutating func declaration(_ p: UnsafePointer<UInt8>, at i: Int, count n: Int) throws(InputError) -> Int? {
        if Self.hasPrefix("<!--", p, i, n) {
            (sectionLine, sectionColumn) = position(at: i, p)
            mode = .comment
            return i + 4
        }
        if Self.hasPrefix("<![CDATA[", p, i, n) {
            guard !openElements.isEmpty else { throw error("a CDATA section outside the root element", at: i, p) }
            (sectionLine, sectionColumn) = position(at: i, p)
            mode = .cdata
            return i + 9
        }
        if Self.hasPrefix("<!DOCTYPE", p, i, n) { return try doctype(p, at: i, count: n) }
        if Self.hasPrefix("<!ENTITY", p, i, n) {
            throw error("entity declarations are refused: entities are never expanded", at: i, p)
        }
        for prefix: StaticString in ["<!--", "<![CDATA[", "<!DOCTYPE", "<!ENTITY"] where Self.isCutPrefix(prefix, p, i, n) {
            return nil
        }
        throw error("unexpected \"<!\": expected a comment, a CDATA section or a DOCTYPE", at: i, p)
    }

    private mutating func doctype(_ p: UnsafePointer<UInt8>, at i: Int, count n: Int) throws(InputError) -> Int? {
        guard !rootSeen else { throw error("a DOCTYPE after the root element's start", at: i, p) }
        var j = i + 9
        var quote: UInt8 = 0
        while j < n {
            let c = p[j]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == 0x22 || c == 0x27 {
                quote = c
            } else if c == 0x5B {  // [
                throw error(
                    "a DOCTYPE with an internal subset (entity declarations) is refused: entities are never expanded or fetched",
                    at: i, p)
            } else if c == 0x3E {
                return j + 1
            }
            j += 1
        }
        return nil
    }

    // MARK: Prolog

    /// Reads the byte order mark and the XML declaration's encoding from ``pending`` and transcodes what
    /// follows. Returns `false` while more bytes are needed to decide.
    private mutating func resolveProlog(final: Bool) throws(InputError) -> Bool {
        let count = pending.count
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if count < 3 && !final && pending.elementsEqual(byteOrderMark.prefix(count)) { return false }
        if count >= 2 {
            let (first, second) = (pending[0], pending[1])
            if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) || (first == 0x3C && second == 0)
                || (first == 0 && second == 0x3C)
            {
                throw InputError("the file is UTF-16, which is not supported: save it as UTF-8", line: 1, column: 1)
            }
        }
        let start = count >= 3 && pending[0..<3].elementsEqual(byteOrderMark) ? 3 : 0
        var index = start
        while index < count && Self.isSpace(pending[index]) { index += 1 }
        let opening = Array("<?xml".utf8)
        let rest = pending[index...]
        let isDeclaration: Bool
        if rest.count > opening.count {
            let next = pending[index + opening.count]
            isDeclaration = rest.starts(with: opening) && (Self.isSpace(next) || next == 0x3F)
        } else if !final && count <= maxTokenLength && opening.starts(with: rest) {
            return false  // only whitespace or the start of "<?xml" so far
        } else {
            isDeclaration = false
        }

        var declarationEnd = index
        var declared = XMLEncoding.utf8
        if isDeclaration {
            var close = index + opening.count
            while close + 1 < count && !(pending[close] == 0x3F && pending[close + 1] == 0x3E) { close += 1 }
            // The same limit whether the "?>" is in this chunk or not (the earliest it can start is at `count - 1`),
            // so that chunking never changes the result.
            guard close + 1 < count, close - index <= Self.maxDeclarationLength else {
                if final || count - 1 - index > Self.maxDeclarationLength {
                    throw prologError(
                        "the XML declaration is not closed with \"?>\" within \(Self.maxDeclarationLength) bytes",
                        at: index, from: start)
                }
                return false
            }
            declarationEnd = close + 2
            if let name = Self.pseudoAttribute("encoding", in: pending[index..<declarationEnd]) {
                do {
                    declared = try XMLEncoding(declaredName: name)
                } catch {
                    var located = prologError(error.message, at: index, from: start)
                    located.field = error.field
                    throw located
                }
            }
            declarationOffset = index - start
        }
        encoding = declared
        if encoding == .latin1 {
            pending = Array(pending[start..<declarationEnd]) + XMLEncoding.utf8(fromLatin1: pending[declarationEnd...])
        } else if start > 0 {
            pending.removeFirst(start)
        }
        mode = .content
        return true
    }

    /// An error in the prolog, where only ASCII whitespace can precede `index`.
    private func prologError(_ message: String, at index: Int, from start: Int) -> InputError {
        var line = 1
        var lineStart = start
        for k in start..<index where pending[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return InputError(message, line: line, column: index - lineStart + 1)
    }

    /// The value of a pseudo-attribute (`encoding="…"`) of the XML declaration.
    private static func pseudoAttribute(_ name: String, in declaration: ArraySlice<UInt8>) -> String? {
        let key = Array(name.utf8)
        var index = declaration.startIndex
        while index + key.count <= declaration.endIndex {
            if declaration[index..<(index + key.count)].elementsEqual(key) {
                var j = index + key.count
                while j < declaration.endIndex && isSpace(declaration[j]) { j += 1 }
                guard j < declaration.endIndex, declaration[j] == 0x3D else { return nil }
                j += 1
                while j < declaration.endIndex && isSpace(declaration[j]) { j += 1 }
                guard j < declaration.endIndex, declaration[j] == 0x22 || declaration[j] == 0x27 else { return nil }
                let quote = declaration[j]
                guard let close = declaration[(j + 1)...].firstIndex(of: quote) else { return nil }
                return String(decoding: declaration[(j + 1)..<close], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }

    // MARK: End

    private func checkEnd() throws(InputError) {
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
    private mutating func unterminated(_ what: String, atEndOf p: UnsafePointer<UInt8>, count n: Int) -> InputError {
        cursor.advance(to: pendingOffset + n, base: p, baseOffset: pendingOffset)
        return unterminated(what)
    }

    private func unterminated(_ what: String) -> InputError {
        InputError(
            "the document ends inside \(what) opened at line \(sectionLine), column \(sectionColumn)",
            line: cursor.line, column: cursor.column)
    }

    // MARK: Helpers

    /// Appends a name to the open elements' names.
    private mutating func pushName(_ name: UnsafePointer<UInt8>, count: Int) {
        let end = namesEnd + count
        if end > elementNames.count {
            elementNames.append(contentsOf: repeatElement(0, count: end - elementNames.count))
        }
        let start = namesEnd
        elementNames.withUnsafeMutableBufferPointer { names in
            names.baseAddress.map { ($0 + start).update(from: name, count: count) }
        }
        namesEnd = end
    }

    /// The line and column of offset `i` of the buffer being scanned.
    private mutating func position(at i: Int, _ p: UnsafePointer<UInt8>) -> (line: Int, column: Int) {
        cursor.advance(to: pendingOffset + i, base: p, baseOffset: pendingOffset)
        return (cursor.line, cursor.column)
    }

    private mutating func error(_ message: String, at i: Int, _ p: UnsafePointer<UInt8>) -> InputError {
        let (line, column) = position(at: i, p)
        return InputError(message, line: line, column: column)
    }

    private func name(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: p + start, count: max(0, min(end - start, 200))), as: UTF8.self)
    }

    private static func character(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Whether `byte` ends a name: whitespace (or another control character), `>`, `/`, `=`, quotes or `<`.
    @inline(__always)
    private static func endsName(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x3E || byte == 0x2F || byte == 0x3D || byte == 0x22 || byte == 0x27 || byte == 0x3C
    }

    @inline(__always)
    private static func find(_ byte: UInt8, in p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let found = memchr(p + from, Int32(byte), to - from) else { return nil }
        return UnsafeRawPointer(p).distance(to: UnsafeRawPointer(found))
    }

    /// The offset of the first `a b` in `from..<to`.
    private static func find(_ a: UInt8, _ b: UInt8, in p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var start = from
        while let index = find(a, in: p, from: start, to: to - 1) {
            if p[index + 1] == b { return index }
            start = index + 1
        }
        return nil
    }

    /// The offset of the first `a b c` in `from..<to`.
    private static func find(_ a: UInt8, _ b: UInt8, _ c: UInt8, in p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var start = from
        while let index = find(a, in: p, from: start, to: to - 2) {
            if p[index + 1] == b && p[index + 2] == c { return index }
            start = index + 1
        }
        return nil
    }

    /// Whether the bytes at `i` start with `prefix`.
    private static func hasPrefix(_ prefix: StaticString, _ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        let length = prefix.utf8CodeUnitCount
        return n - i >= length && memcmp(p + i, prefix.utf8Start, length) == 0
    }

    /// Whether the buffer ends (at `n`) inside what could still become `prefix`.
    private static func isCutPrefix(_ prefix: StaticString, _ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        n - i < prefix.utf8CodeUnitCount && memcmp(p + i, prefix.utf8Start, n - i) == 0
    }
}
