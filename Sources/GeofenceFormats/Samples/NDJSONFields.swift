import GeofenceKit

/// The known members of one NDJSON sample object, as scanned (syntax checked, meaning not yet).
struct NDJSONFields {
    /// A scanned value, kept as tokens so that only the device becomes a `String`.
    enum Scanned {
        case absent
        case string(JSONScanner.StringToken)
        case number(JSONScanner.NumberToken)
        /// Any other kind, with its description for the message (`a boolean`, `an array`, …). A `StaticString`
        /// keeps every field trivially copyable: copying the fields of a line is then a plain move of bytes.
        case other(StaticString)
    }

    struct Field {
        var value = Scanned.absent
        var mark = JSONScanner.Mark(offset: 0, line: 0, column: 0)
    }

    enum Key: Int {
        case device, latitude, longitude, time, accuracy

        var name: String {
            switch self {
            case .device: "device"
            case .latitude: "lat"
            case .longitude: "lon"
            case .time: "time"
            case .accuracy: "accuracy"
            }
        }
    }

    var fields = (Field(), Field(), Field(), Field(), Field())
    private var seen: UInt8 = 0
    /// Keys the decoder does not use, kept only to detect duplicates among them (rare, so allocated lazily).
    private var otherKeys: [String] = []

    subscript(key: Key) -> Field {
        get {
            switch key {
            case .device: fields.0
            case .latitude: fields.1
            case .longitude: fields.2
            case .time: fields.3
            case .accuracy: fields.4
            }
        }
        set {
            switch key {
            case .device: fields.0 = newValue
            case .latitude: fields.1 = newValue
            case .longitude: fields.2 = newValue
            case .time: fields.3 = newValue
            case .accuracy: fields.4 = newValue
            }
        }
    }

    /// Scans the whole line: one object, nothing after it.
    mutating func scan(_ scanner: inout JSONScanner) throws(InputError) {
        scanner.skipWhitespace()
        guard scanner.consume(UInt8(ascii: "{")) else {
            throw scanner.unexpected(expected: "a JSON object ('{') holding one sample")
        }
        scanner.skipWhitespace()
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                let keyMark = scanner.mark
                guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.unexpected(expected: "a key in quotes") }
                let token = try scanner.readStringToken()
                let key = try identify(token, scanner, at: keyMark)
                scanner.skipWhitespace()
                try scanner.expect(UInt8(ascii: ":"), "':' after the key")
                scanner.skipWhitespace()
                if let key {
                    let valueMark = scanner.mark
                    self[key] = Field(value: try scanValue(&scanner), mark: valueMark)
                } else {
                    try scanner.skipValue(depth: JSONParser.defaultMaximumDepth)
                }
                scanner.skipWhitespace()
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"), "',' or '}'")
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw scanner.unexpected(expected: "the end of the line after the object") }
    }

    /// Which known key a scanned key is (`nil` for others), rejecting any key seen before on the line.
    private mutating func identify(_ token: JSONScanner.StringToken, _ scanner: JSONScanner, at mark: JSONScanner.Mark)
        throws(InputError) -> Key?
    {
        var key: Key?
        if !token.hasEscapes {
            switch token.span.count {
            case 3:
                if scanner.token(token, equals: "lat") {
                    key = .latitude
                } else if scanner.token(token, equals: "lon") {
                    key = .longitude
                }
            case 4: if scanner.token(token, equals: "time") { key = .time }
            case 6: if scanner.token(token, equals: "device") { key = .device }
            case 8: if scanner.token(token, equals: "accuracy") { key = .accuracy }
            default: break
            }
        }
        if key == nil {
            let text = scanner.string(of: token)
            key = [Key.device, .latitude, .longitude, .time, .accuracy].first { $0.name == text }
            if key == nil {
                guard !otherKeys.contains(text) else { throw duplicate(text, at: mark) }
                otherKeys.append(text)
                return nil
            }
        }
        guard let key else { return nil }
        let bit: UInt8 = 1 << UInt8(key.rawValue)
        guard seen & bit == 0 else { throw duplicate(key.name, at: mark) }
        seen |= bit
        return key
    }

    private func duplicate(_ key: String, at mark: JSONScanner.Mark) -> InputError {
        InputError("duplicate key \"\(key)\"", line: mark.line, column: mark.column)
    }

    /// Scans one value; the caller stores it with the mark taken before.
    private func scanValue(_ scanner: inout JSONScanner) throws(InputError) -> Scanned {
        switch scanner.peek() ?? 0 {
        case UInt8(ascii: "\""):
            return .string(try scanner.readStringToken())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // Coordinates take the plain decimal parser's tight loop; anything else the general reader.
            if let (value, end, isInteger) = PlainDecimalParser.parse(scanner.bytes, from: scanner.offset) {
                let span = scanner.offset..<end
                scanner.offset = end
                return .number(JSONScanner.NumberToken(span: span, value: value, isIntegerText: isInteger))
            }
            return .number(try scanner.readNumber())
        case UInt8(ascii: "{"):
            try scanner.skipValue(depth: JSONParser.defaultMaximumDepth)
            return .other("an object")
        case UInt8(ascii: "["):
            try scanner.skipValue(depth: JSONParser.defaultMaximumDepth)
            return .other("an array")
        default:
            return try scanner.readLiteral() == nil ? .absent : .other("a boolean")
        }
    }

    /// Checks the fields' meaning and returns the sample's values, the device's name left in the line when it
    /// has no escapes.
    func values(_ scanner: JSONScanner, lineNumber: Int) throws(SampleDecodingError) -> SampleFields {
        func failure(_ reason: SampleRejection, _ message: String, _ key: Key) -> SampleDecodingError {
            let field = self[key]
            let column = if case .absent = field.value { nil as Int? } else { field.mark.column }
            return SampleDecodingError(
                reason: reason, error: InputError(message, line: lineNumber, column: column, field: key.name))
        }

        let device: SampleFields.Device
        switch self[.device].value {
        case .absent:
            throw failure(.missingField, "missing", .device)
        case .string(let token):
            // The scanner has checked the string's UTF-8, so its bytes are the name's unless it has escapes.
            let name = token.hasEscapes ? scanner.string(of: token) : ""
            guard !(token.hasEscapes ? name.isEmpty : token.span.isEmpty) else {
                throw failure(.missingField, "must not be empty", .device)
            }
            device = token.hasEscapes ? .text(name) : .span(token.span)
        case .number(let token):
            guard token.isIntegerText else {
                throw failure(.malformed, "expected a string or an integer, found \(scanner.text(of: token.span))", .device)
            }
            device = .span(token.span)
        case .other(let found):
            throw failure(.malformed, "expected a string, found \(found)", .device)
        }

        func number(_ key: Key, _ reason: SampleRejection) throws(SampleDecodingError) -> Double? {
            switch self[key].value {
            case .absent: return nil
            case .number(let token): return token.value
            case .string: throw failure(reason, "expected a number, found a string", key)
            case .other(let found): throw failure(reason, "expected a number, found \(found)", key)
            }
        }
        guard let latitude = try number(.latitude, .invalidCoordinate) else {
            throw failure(.missingField, "missing", .latitude)
        }
        guard let longitude = try number(.longitude, .invalidCoordinate) else {
            throw failure(.missingField, "missing", .longitude)
        }
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw failure(
                .invalidCoordinate, SampleDecoder.coordinateMessage(error, longitude: longitude),
                error.field == "lat" ? .latitude : .longitude)
        }

        if case .absent = self[.time].value { throw failure(.missingField, "missing", .time) }
        let time: Timestamp
        do throws(InputError) {
            switch self[.time].value {
            case .absent:
                throw InputError("missing")
            case .string(let token) where !token.hasEscapes:
                time = try Timestamp.parseISO8601(UnsafeBufferPointer(rebasing: scanner.bytes[token.span]))
            case .string(let token):
                time = try Timestamp.parseISO8601(scanner.string(of: token))
            case .number(let token):
                time = try Timestamp.parseUnixSeconds(UnsafeBufferPointer(rebasing: scanner.bytes[token.span]))
            case .other(let found):
                throw InputError("expected an ISO-8601 string or Unix seconds, found \(found)")
            }
        } catch {
            throw failure(.invalidTime, error.message, .time)
        }

        let accuracy = try number(.accuracy, .invalidAccuracy)
        if let accuracy, !(accuracy.isFinite && accuracy >= 0) {
            throw failure(.invalidAccuracy, "must be a finite number ≥ 0", .accuracy)
        }
        return SampleFields(device: device, coordinate: coordinate, time: time, accuracy: accuracy)
    }
}
