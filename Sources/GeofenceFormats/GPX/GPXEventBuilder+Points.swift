import GeofenceKit

// Points (`wpt`, `rtept`, `trkpt`): their coordinates from the attributes, completed at their end tag.

extension GPXEventBuilder {
    mutating func startPoint(_ kind: GPXPoint.Kind, _ tag: XMLStartTag) {
        pendingError = nil
        // The common case, plain numbers in range, without building the errors' results; anything else is read
        // again below, where the messages are made.
        if let latitude = Self.plainCoordinate("lat", limit: 90, tag),
            let longitude = Self.plainCoordinate("lon", limit: 180, tag)
        {
            pending = PendingPoint(kind: kind, point: GPXPoint(latitude: latitude, longitude: longitude, line: tag.line))
            return
        }
        var point = GPXPoint(latitude: 0, longitude: 0, line: tag.line)
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

    /// The `lat` or `lon` attribute's value when it is a number in range written without references; else `nil`.
    static func plainCoordinate(_ name: StaticString, limit: Double, _ tag: XMLStartTag) -> Double? {
        guard let attribute = tag.attribute(named: name),
            case .success(let value) = GPXDecimal.parse(tag.rawValue(of: attribute)),
            value >= -limit && value <= limit
        else { return nil }
        return value
    }

    /// The `lat` or `lon` attribute's value, checked, or the error that refuses the point.
    func coordinate(
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

    mutating func endPoint() {
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
}
