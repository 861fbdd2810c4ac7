import GeofenceKit

// The values inside a point: `time` and `ele`, read from the text the tokenizer passes on.

extension GPXEventBuilder {
    mutating func startValue(_ tag: XMLStartTag) {
        valueLength = 0
        valueProblem = nil
        valueLine = tag.line
        valueColumn = tag.column
    }

    /// Reads the point's first `<time>`; later ones are ignored.
    ///
    /// A time that is not a time refuses the point: playing it untimed would move it in the replay without a
    /// word. GPX times are UTC by definition, so a time without a zone (`2024-05-01T10:00:00`, written by some
    /// exporters) is read as UTC; an empty `<time/>` is ignored with a warning.
    mutating func endTime() {
        guard let kind = pending?.kind, pending?.hasTime == false else { return }
        pending?.hasTime = true
        let result: Result<Timestamp?, InputError>
        if let valueProblem {
            result = .failure(InputError(valueProblem))
        } else {
            let length = valueLength
            result = value.withUnsafeBufferPointer { bytes -> Result<Timestamp?, InputError> in
                let text = Self.trimmed(UnsafeBufferPointer(rebasing: bytes[..<length]))
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
    mutating func endElevation() {
        guard let kind = pending?.kind, pending?.hasElevation == false else { return }
        pending?.hasElevation = true
        let parsed: Result<Double, GPXDecimal.Failure>
        if valueProblem != nil {
            parsed = .failure(.notANumber)
        } else {
            let length = valueLength
            parsed = value.withUnsafeBufferPointer { bytes in
                let text = Self.trimmed(UnsafeBufferPointer(rebasing: bytes[..<length]))
                return text.isEmpty ? .failure(.notANumber) : GPXDecimal.parse(text)
            }
        }
        let problem: String
        switch parsed {
        case .success(let elevation):
            pending?.point.elevation = elevation
            return
        case .failure(let failure):
            let length = valueLength
            let text = value.withUnsafeBufferPointer {
                String(decoding: Self.trimmed(UnsafeBufferPointer(rebasing: $0[..<length])), as: UTF8.self)
            }
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
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
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
    static func quoted(_ text: String) -> String {
        text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
    }
}
