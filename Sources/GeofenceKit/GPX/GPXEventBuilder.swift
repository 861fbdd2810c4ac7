/// Turns the elements of a GPX document into ``GPXEvent``s: the GPX half of ``GPXReader``.
///
/// Elements are matched by their local name, whatever their prefix or namespace, and only where GPX 1.0 and 1.1
/// put them: `wpt`, `rte` and `trk` in the root, `rtept` in `rte`, `trkseg` in `trk`, `trkpt` in `trkseg`, and
/// `time` and `ele` in a point. Everything else (metadata, names, extensions of any depth, elements GPX does not
/// define) is skipped, so a `<trkpt>` inside an extension is never taken for a track point.
struct GPXEventBuilder: XMLTokenHandler {
    /// What an open element means to GPX. The nesting is fixed, so the parent of each is known (see
    /// ``endElement()``) and no stack is needed: the reader runs in debug builds too, where arrays are slow.
    private enum Element: Sendable {
        case gpx, waypoint, route, routePoint, track, segment, trackPoint, time, elevation
    }

    /// The point whose element is open. Plain values only, so that updating it copies no references.
    private struct PendingPoint: Sendable {
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
    private var context: Element?
    /// How many elements GPX does not define (or not there) are open inside ``context``: their content is skipped.
    private var skippedDepth = 0
    private var pending: PendingPoint?
    /// Why the pending point is refused; the first problem found wins.
    private var pendingError: InputError?
    /// The text of the open `<time>` or `<ele>`, references decoded.
    private var value: [UInt8] = []
    /// Why ``value`` cannot be used (too long, a bad reference), if it cannot.
    private var valueProblem: String?
    private var valueLine = 0
    private var valueColumn = 0

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
    private var pointElement: Element {
        switch pending?.kind {
        case .waypoint?: .waypoint
        case .routePoint?: .routePoint
        case .trackPoint?, nil: .trackPoint
        }
    }

    mutating func characters(_ text: UnsafeBufferPointer<UInt8>, isCDATA: Bool) throws(InputError) {
        guard skippedDepth == 0, context == .time || context == .elevation, valueProblem == nil else { return }
        // The first problem in the text wins (see XMLEntityDecoder.decode), whatever the chunks were.
        let tooLong = "the value is longer than \(Self.maxValueLength) bytes"
        if isCDATA || !XMLEntityDecoder.needsDecoding(text) {
            guard value.count + text.count <= Self.maxValueLength else {
                valueProblem = tooLong
                return
            }
            value.append(contentsOf: text)
        } else {
            do {
                if !(try XMLEntityDecoder.decode(text, into: &value, limit: Self.maxValueLength)) {
                    valueProblem = tooLong
                }
            } catch {
                valueProblem = error.message
            }
        }
    }

    // MARK: Points

    private mutating func startPoint(_ kind: GPXPoint.Kind, _ tag: XMLStartTag) {
        var point = GPXPoint(latitude: 0, longitude: 0, line: tag.line)
        pendingError = nil
        let longitude = coordinate("lon", limit: 180, kind, tag)
        // A latitude out of range beside a longitude that would be a valid latitude: probably a swapped pair.
        let couldBeSwapped = if case .success(let value) = longitude { abs(value) <= 90 } else { false }
        switch coordinate("lat", limit: 90, kind, tag, swapHint: couldBeSwapped) {
        case .success(let latitude): point.latitude = latitude
        case .failure(let error): pendingError = error
        }
        switch longitude {
        case .success(let longitude):
            point.longitude = longitude
        case .failure(let error):
            if var latitudeError = pendingError {
                // One error per point, but naming both problems, so fixing the file takes one round.
                latitudeError.message += "; \(error.field ?? "lon"): \(error.message)"
                pendingError = latitudeError
            } else {
                pendingError = error
            }
        }
        pending = PendingPoint(kind: kind, point: point)
    }

    /// The `lat` or `lon` attribute's value, checked, or the error that refuses the point.
    private func coordinate(
        _ name: StaticString, limit: Double, _ kind: GPXPoint.Kind, _ tag: XMLStartTag, swapHint: Bool = false
    ) -> Result<Double, InputError> {
        // Field names, positions and texts are only worked out for errors: this runs twice for every point.
        guard let attribute = tag.attribute(named: name) else {
            return .failure(
                InputError("required attribute is missing", line: tag.line, column: tag.column, field: "\(kind.rawValue).\(name)"))
        }
        let raw = tag.rawValue(of: attribute)
        func failure(_ message: String) -> Result<Double, InputError> {
            let (line, column) = tag.position(of: attribute)
            return .failure(InputError(message, line: line, column: column, field: "\(kind.rawValue).\(name)"))
        }
        let quoted = { Self.quoted(String(decoding: raw, as: UTF8.self)) }
        let parsed: Result<Double, GPXDecimal.Failure>
        if XMLEntityDecoder.needsDecoding(raw) {
            var decoded: [UInt8] = []
            do {
                try XMLEntityDecoder.decode(raw, into: &decoded)
            } catch {
                return failure(error.message)
            }
            parsed = decoded.withUnsafeBufferPointer { GPXDecimal.parse($0) }
        } else {
            parsed = GPXDecimal.parse(raw)
        }
        switch parsed {
        case .success(let value):
            guard value >= -limit && value <= limit else {
                let hint = swapHint && abs(value) <= 180 ? "; are lat and lon swapped?" : ""
                return failure("\(quoted()) is out of range (-\(Int(limit))...\(Int(limit)))" + hint)
            }
            return .success(value)
        case .failure(.notFinite):
            return failure("\(quoted()) is not a finite number")
        case .failure(.notANumber):
            return failure("\(quoted()) is not a number")
        }
    }

    private mutating func endPoint() {
        guard let pending else { return }
        self.pending = nil
        if let error = pendingError {
            pendingError = nil
            events.append(.invalidPoint(pending.kind, error))
            return
        }
        switch pending.kind {
        case .waypoint: events.append(.waypoint(pending.point))
        case .routePoint: events.append(.routePoint(pending.point))
        case .trackPoint: events.append(.trackPoint(pending.point))
        }
    }

    // MARK: Values

    private mutating func startValue(_ tag: XMLStartTag) {
        if !value.isEmpty { value.removeAll(keepingCapacity: true) }
        valueProblem = nil
        valueLine = tag.line
        valueColumn = tag.column
    }

    /// Reads the point's first `<time>`; later ones are ignored.
    ///
    /// A time that is not a time refuses the point: playing it untimed would move it in the replay without a
    /// word. GPX times are UTC by definition, so a time without a zone (`2024-05-01T10:00:00`, written by some
    /// exporters) is read as UTC; an empty `<time/>` is ignored with a warning.
    private mutating func endTime() {
        guard let kind = pending?.kind, pending?.hasTime == false else { return }
        pending?.hasTime = true
        let result: Result<Timestamp?, InputError>
        if let valueProblem {
            result = .failure(InputError(valueProblem))
        } else {
            result = value.withUnsafeBufferPointer { bytes -> Result<Timestamp?, InputError> in
                let text = Self.trimmed(bytes)
                guard !text.isEmpty else { return .success(nil) }
                do throws(InputError) {
                    return .success(try Timestamp.parseISO8601(text))
                } catch {
                    // Without a zone? GPX says UTC.
                    var zoned = Array(text)
                    zoned.append(UInt8(ascii: "Z"))
                    if let utc = try? zoned.withUnsafeBufferPointer({ (bytes) throws(InputError) in try Timestamp.parseISO8601(bytes) }) {
                        return .success(utc)
                    }
                    return .failure(error)
                }
            }
        }
        switch result {
        case .success(let time?):
            pending?.point.time = time
        case .success(nil):
            events.append(.warning(InputError("empty <time> ignored", line: valueLine, column: valueColumn, field: "\(kind.rawValue).time")))
        case .failure(let error):
            if pendingError == nil {
                pendingError = InputError(error.message, line: valueLine, column: valueColumn, field: "\(kind.rawValue).time")
            }
        }
    }

    /// Reads the point's first `<ele>`; one that is not a number is ignored with a warning, never refusing the
    /// point, since playback does not use elevations.
    private mutating func endElevation() {
        guard let kind = pending?.kind, pending?.hasElevation == false else { return }
        pending?.hasElevation = true
        let parsed: Result<Double, GPXDecimal.Failure>
        if valueProblem != nil {
            parsed = .failure(.notANumber)
        } else {
            parsed = value.withUnsafeBufferPointer { bytes in
                let text = Self.trimmed(bytes)
                return text.isEmpty ? .failure(.notANumber) : GPXDecimal.parse(text)
            }
        }
        let problem: String
        switch parsed {
        case .success(let elevation):
            pending?.point.elevation = elevation
            return
        case .failure(let failure):
            let text = value.withUnsafeBufferPointer { String(decoding: Self.trimmed($0), as: UTF8.self) }
            if let valueProblem {
                problem = valueProblem + "; the elevation is ignored"
            } else if text.isEmpty {
                problem = "empty <ele> ignored"
            } else {
                problem = "\(Self.quoted(text)) is not a\(failure == .notFinite ? " finite" : "") number; the elevation is ignored"
            }
        }
        events.append(.warning(InputError(problem, line: valueLine, column: valueColumn, field: "\(kind.rawValue).ele")))
    }

    /// `bytes` without leading and trailing XML whitespace.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let base = bytes.baseAddress else { return bytes }
        var start = 0
        var end = bytes.count
        while start < end && (base[start] == 0x20 || base[start] == 0x0A || base[start] == 0x09 || base[start] == 0x0D) {
            start += 1
        }
        while end > start && (base[end - 1] == 0x20 || base[end - 1] == 0x0A || base[end - 1] == 0x09 || base[end - 1] == 0x0D) {
            end -= 1
        }
        return UnsafeBufferPointer(start: base + start, count: end - start)
    }

    /// The text in quotes for a message, cut at 40 characters so one bad value cannot flood a report.
    private static func quoted(_ text: String) -> String {
        text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
    }
}
