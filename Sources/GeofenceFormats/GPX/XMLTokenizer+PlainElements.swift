import GeofenceKit

// The handler's one-pass shortcut (XMLTokenHandler.readPlainElement): the tokenizer's side of it.

extension XMLTokenizer {
    /// Offers the markup at `i` (a `<`) to the handler's one-pass reader and, when it read some, moves past it as
    /// if it had read those bytes itself; returns where to go on, or `nil` when the handler read nothing.
    mutating func plainElement<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, at i: Int, count n: Int, handler: inout Handler
    ) -> Int? {
        let (line, column) = position(at: i, p)
        guard
            let read = handler.readPlainElement(
                p, at: i, count: n, line: line, maxTagLength: maxTokenLength, maxDepth: maxDepth - openElements.count)
        else { return nil }
        if let name = read.openName {
            openElements.append(OpenElement(nameStart: namesEnd, line: line, column: column))
            pushName(p + name.lowerBound, count: name.count)
        }
        cursor.advance(
            overASCIITo: pendingOffset + read.end, lineFeeds: read.lineFeeds,
            lastLineStart: pendingOffset + read.lastLineStart)
        return read.end
    }
}
