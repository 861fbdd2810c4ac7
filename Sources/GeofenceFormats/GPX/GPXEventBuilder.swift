import GeofenceKit

/// Turns the elements of a GPX document into ``GPXEvent``s: the GPX half of ``GPXReader``.
///
/// Elements are matched by their local name, whatever their prefix or namespace, and only where GPX 1.0 and 1.1
/// put them: `wpt`, `rte` and `trk` in the root, `rtept` in `rte`, `trkseg` in `trk`, `trkpt` in `trkseg`, and
/// `time` and `ele` in a point. Everything else (metadata, names, extensions of any depth, elements GPX does not
/// define) is skipped, so a `<trkpt>` inside an extension is never taken for a track point.

struct GPXEventBuilder: XMLTokenHandler {
    /// What an open element means to GPX. The nesting is fixed, so the parent of each is known (see
    /// ``endElement()``) and no stack is needed: the reader runs in debug builds too, where arrays are slow.
    enum Element: Sendable {
        case gpx, waypoint, route, routePoint, track, segment, trackPoint, time, elevation
    }

    /// The point whose element is open. Plain values only, so that updating it copies no references.
    struct PendingPoint: Sendable {
        var kind: GPXPoint.Kind
        var point: GPXPoint
        var hasTime = false
        var hasElevation = false
    }

    /// The longest `<time>` or `<ele>` text kept; longer text cannot be a valid value anyway.
    static let maxValueLength = 256

    /// The events read since they were last taken.
    var events: [GPXEvent] = []
    /// The innermost open element that GPX defines here; `nil` before the root and after it.
    var context: Element?
    /// How many elements GPX does not define (or not there) are open inside ``context``: their content is skipped.
    var skippedDepth = 0
    var pending: PendingPoint?
    /// Why the pending point is refused; the first problem found wins.
    var pendingError: InputError?
    /// The text of the open `<time>` or `<ele>`, references decoded: the first ``valueLength`` bytes. The array
    /// only grows, so that starting a value costs nothing (two per point).
    var value: [UInt8] = []
    var valueLength = 0
    /// Why ``value`` cannot be used (too long, a bad reference), if it cannot.
    var valueProblem: String?
    var valueLine = 0
    var valueColumn = 0
    /// Whether track points of the common shape are read in one pass (``GPXPlainTrackPoint``); off only in the
    /// tests that compare the two paths.
    var readsPlainTrackPoints = true

    // MARK: XMLTokenHandler

    mutating func startElement(_ tag: XMLStartTag) throws(InputError) {
        guard skippedDepth == 0 else {
            skippedDepth += 1
            return
        }
        let name = tag.localName
        var element: Element?
        switch context {
        case nil:
            guard XMLStartTag.equals(name, "gpx") else {
                throw InputError(
                    "the root element is <\(tag.qualifiedName)>, not <gpx>: this is not a GPX file", line: tag.line,
                    column: tag.column)
            }
            var version: String?
            if let attribute = tag.attribute(named: "version") { version = try tag.stringValue(of: attribute) }
            events.append(.document(version: version))
            element = .gpx
        case .gpx?:
            if XMLStartTag.equals(name, "trk") {
                events.append(.trackStart)
                element = .track
            } else if XMLStartTag.equals(name, "wpt") {
                startPoint(.waypoint, tag)
                element = .waypoint
            } else if XMLStartTag.equals(name, "rte") {
                events.append(.routeStart)
                element = .route
            }
        case .track?:
            if XMLStartTag.equals(name, "trkseg") {
                events.append(.segmentStart)
                element = .segment
            }
        case .segment?:
            if XMLStartTag.equals(name, "trkpt") {
                startPoint(.trackPoint, tag)
                element = .trackPoint
            }
        case .route?:
            if XMLStartTag.equals(name, "rtept") {
                startPoint(.routePoint, tag)
                element = .routePoint
            }
        case .waypoint?, .routePoint?, .trackPoint?:
            if XMLStartTag.equals(name, "time") {
                startValue(tag)
                element = .time
            } else if XMLStartTag.equals(name, "ele") {
                startValue(tag)
                element = .elevation
            }
        case .time?, .elevation?:
            break
        }
        if let element { context = element } else { skippedDepth = 1 }
    }

    mutating func endElement() throws(InputError) {
        guard skippedDepth == 0 else {
            skippedDepth -= 1
            return
        }
        switch context {
        case .gpx?: context = nil
        case .waypoint?:
            endPoint()
            context = .gpx
        case .route?:
            events.append(.routeEnd)
            context = .gpx
        case .routePoint?:
            endPoint()
            context = .route
        case .track?:
            events.append(.trackEnd)
            context = .gpx
        case .segment?:
            events.append(.segmentEnd)
            context = .track
        case .trackPoint?:
            endPoint()
            context = .segment
        case .time?:
            endTime()
            context = pointElement
        case .elevation?:
            endElevation()
            context = pointElement
        case nil: break
        }
    }

    /// The element of the point being read (the parent of its `<time>` and `<ele>`).
    var pointElement: Element {
        switch pending?.kind {
        case .waypoint?: .waypoint
        case .routePoint?: .routePoint
        case .trackPoint?, nil: .trackPoint
        }
    }

    /// Why a value was refused for its length (built only then: it was once built for every value, two string
    /// allocations per point).
    private static var tooLong: String { "the value is longer than \(maxValueLength) bytes" }

    mutating func characters(_ text: UnsafeBufferPointer<UInt8>, isCDATA: Bool) throws(InputError) {
        guard skippedDepth == 0, context == .time || context == .elevation, valueProblem == nil else { return }
        // The first problem in the text wins (see XMLEntityDecoder.decode), whatever the chunks were.
        if isCDATA || !XMLEntityDecoder.needsDecoding(text) {
            guard valueLength + text.count <= Self.maxValueLength else {
                valueProblem = Self.tooLong
                return
            }
            appendValue(text)
        } else {
            var decoded = Array(value[..<valueLength])
            do {
                if !(try XMLEntityDecoder.decode(text, into: &decoded, limit: Self.maxValueLength)) {
                    valueProblem = Self.tooLong
                }
            } catch {
                valueProblem = error.message
            }
            value = decoded
            valueLength = decoded.count
        }
    }

    /// Appends `text` to the value's bytes.
    private mutating func appendValue(_ text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress, !text.isEmpty else { return }
        let start = valueLength
        let end = start + text.count
        if value.count < end { value.append(contentsOf: repeatElement(0, count: end - value.count)) }
        value.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress.map { ($0 + start).update(from: source, count: text.count) }
        }
        valueLength = end
    }
}
