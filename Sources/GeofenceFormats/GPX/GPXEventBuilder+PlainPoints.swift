import GeofenceKit

// Track points of the common shape, read in one pass (GPXPlainTrackPoint) when the tokenizer offers them.

extension GPXEventBuilder {
    /// In a segment, outside anything skipped: where a `<trkpt>` is a track point.
    var readsPlainElements: Bool { context == .segment && skippedDepth == 0 && readsPlainTrackPoints }

    /// Reads a plain track point: a complete one is reported as ``startElement(_:)`` … ``endElement()`` would; one
    /// left open is pending, with the values read so far, as ``startElement(_:)`` and its children would leave it.
    mutating func readPlainElement(
        _ p: UnsafePointer<UInt8>, at start: Int, count: Int, line: Int, maxTagLength: Int, maxDepth: Int
    ) -> XMLPlainElement? {
        guard
            let reading = GPXPlainTrackPoint.read(
                p, at: start, count: count, line: line, maxTagLength: maxTagLength, maxDepth: maxDepth)
        else { return nil }
        var openName: Range<Int>?
        if reading.isClosed {
            events.append(.trackPoint(reading.point))
        } else {
            pending = PendingPoint(
                kind: .trackPoint, point: reading.point, hasTime: reading.hasTime, hasElevation: reading.hasElevation)
            pendingError = nil
            context = .trackPoint
            openName = (start + 1)..<(start + 6)  // trkpt
        }
        return XMLPlainElement(
            end: reading.end, lineFeeds: reading.lineFeeds, lastLineStart: reading.lastLineStart, openName: openName)
    }
}
