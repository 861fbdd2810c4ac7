import GeofenceKit

/// What ``XMLTokenizer`` calls, in document order, for the elements and text it reads.
///
/// The tokenizer has already checked well-formedness: every ``endElement()`` closes the element of the latest
/// unclosed ``startElement(_:)``, text outside the root is never passed on, and self-closing tags come as a
/// start and an end. Byte views passed in are valid only during the call.

protocol XMLTokenHandler {
    mutating func startElement(_ tag: XMLStartTag) throws(InputError)
    mutating func endElement() throws(InputError)
    /// Character data inside the root, in one or more pieces: raw text (references not decoded; a piece never
    /// ends inside a reference) or, when `isCDATA`, the literal contents of a CDATA section.
    mutating func characters(_ text: UnsafeBufferPointer<UInt8>, isCDATA: Bool) throws(InputError)

    /// Whether the handler would read the markup at the next `<` itself, if it is in the plain shape it knows
    /// (see ``readPlainElement(_:at:count:line:maxTagLength:maxDepth:)``). Asked before every `<`, so it must be cheap.
    var readsPlainElements: Bool { get }
    /// Reads, in one pass and without the tokenizer, the element whose `<` is at `start` in `p` (valid up to
    /// `count`) when it has the handler's plain shape, and reports what it read; `nil` when it read nothing.
    ///
    /// What it reads must be well-formed, ASCII, free of references, and leave the handler exactly as the same
    /// bytes read through ``startElement(_:)``, ``characters(_:isCDATA:)`` and ``endElement()`` would: the
    /// tokenizer then only moves past them. `line` is the line of `start`. The tokenizer's limits hold: a tag ends
    /// (its `>`) before `maxTagLength` bytes, and at most `maxDepth` elements are opened in what is read (counting
    /// the one at `start`), as the tokenizer would refuse more.
    mutating func readPlainElement(
        _ p: UnsafePointer<UInt8>, at start: Int, count: Int, line: Int, maxTagLength: Int, maxDepth: Int
    ) -> XMLPlainElement?
}

/// What ``XMLTokenHandler/readPlainElement(_:at:count:line:maxTagLength:maxDepth:)`` read.
struct XMLPlainElement {
    /// The offset just after the bytes read.
    var end: Int
    /// The line feeds among them, and the offset just after the last one (for the tokenizer's line and column).
    var lineFeeds: Int
    var lastLineStart: Int
    /// The name of the element when the bytes read end inside it (its start tag read, its end tag not), as
    /// offsets of the buffer: the tokenizer records it as open, as if it had read the start tag itself.
    var openName: Range<Int>?
}

extension XMLTokenHandler {
    var readsPlainElements: Bool { false }

    mutating func readPlainElement(
        _ p: UnsafePointer<UInt8>, at start: Int, count: Int, line: Int, maxTagLength: Int, maxDepth: Int
    ) -> XMLPlainElement? { nil }
}
