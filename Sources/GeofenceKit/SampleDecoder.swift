/// Decodes one line of location samples, NDJSON or CSV, into a ``LocationSample`` or a counted rejection.
///
/// Built for millions of lines per second: NDJSON objects are scanned flat with ``JSONScanner`` (no tree), and
/// nothing is allocated but the device identifier (which Swift stores inline up to 15 UTF-8 bytes). Times are
/// converted exactly (ISO-8601 and decimal Unix seconds), never through `Double`.
///
/// Lines come in two spellings. `UnsafeBufferPointer` is the fastest, for readers that already hold their buffer
/// in `withUnsafeBufferPointer` (pass `UnsafeBufferPointer(rebasing: buffer[range])`); the `ArraySlice`
/// overloads are as safe as any array access and cost one `withUnsafeBufferPointer` call more. Nothing returned
/// refers to the bytes. A trailing carriage return is ignored; blank lines are the caller's to skip
/// (``isBlank(_:)-(ArraySlice<UInt8>)``).
///
/// Field rules, the same in both formats:
/// - `device`: a non-empty string of valid UTF-8. NDJSON also accepts an integer (`"device": 17` is device `"17"`,
///   matching a CSV file's `17`), since fleet systems often number their vehicles.
/// - `lat`, `lon`: finite numbers in range. `time`: an ISO-8601 string with a zone, or Unix seconds as a number.
/// - `accuracy`: optional, finite, ≥ 0.
/// - `null` (NDJSON) or an empty field (CSV) counts as absent. Unknown NDJSON keys and CSV columns are ignored;
///   a key that occurs twice makes the line malformed, because either value could be the intended one.
///
/// Syntax errors take precedence (reason `malformed`); then fields are checked in the order device, lat, lon,
/// time, accuracy, and the first failure is reported with its column and field.
public enum SampleDecoder {
    /// Whether a line holds only spaces, tabs and carriage returns (or a byte order mark): the caller skips it.
    public static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.dropFirst(byteOrderMarkLength(line)).allSatisfy {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n")
        }
    }

    /// Whether a line is blank; see ``isBlank(_:)-(UnsafeBufferPointer<UInt8>)``.
    public static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.withUnsafeBufferPointer { isBlank($0) }
    }

    /// Decodes one NDJSON line such as `{"device":"bus-17","lat":25.0478,"lon":121.517,"time":"2026-11-21T08:00:00Z"}`.
    /// - Parameter lineNumber: the line's number in its input, for the error.
    public static func decodeNDJSON(line: ArraySlice<UInt8>, lineNumber: Int) throws(SampleDecodingError)
        -> LocationSample
    {
        try line.withUnsafeBufferPointer { bytes throws(SampleDecodingError) in
            try decodeNDJSON(line: bytes, lineNumber: lineNumber)
        }
    }

    /// Decodes one NDJSON line from a buffer that stays valid for the duration of the call.
    public static func decodeNDJSON(line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(SampleDecodingError)
        -> LocationSample
    {
        var scanner = JSONScanner(line, firstLine: lineNumber)
        var fields = NDJSONFields()
        do throws(InputError) {
            try fields.scan(&scanner)
        } catch {
            throw SampleDecodingError(reason: .malformed, error: error)
        }
        return try fields.sample(scanner, lineNumber: lineNumber)
    }

    /// Decodes one CSV row whose columns `header` describes.
    public static func decodeCSV(line: ArraySlice<UInt8>, header: CSVSampleHeader, lineNumber: Int)
        throws(SampleDecodingError) -> LocationSample
    {
        try line.withUnsafeBufferPointer { bytes throws(SampleDecodingError) in
            try decodeCSV(line: bytes, header: header, lineNumber: lineNumber)
        }
    }

    /// Decodes one CSV row from a buffer that stays valid for the duration of the call.
    ///
    /// A row with fewer fields than the header leaves the missing trailing columns empty; a row with more is
    /// malformed (usually an unquoted comma, which would shift the columns after it).
    public static func decodeCSV(line: UnsafeBufferPointer<UInt8>, header: CSVSampleHeader, lineNumber: Int)
        throws(SampleDecodingError) -> LocationSample
    {
        var bytes = line
        if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        var scanner = CSVFieldScanner(bytes)
        // Absent (`nil`) when the row ends before the column; empty fields are present with an empty span.
        var device, latitude, longitude, time, accuracy: CSVFieldScanner.Field?
        var fieldCount = 0
        while true {
            let next: CSVFieldScanner.Field?
            do throws(CSVSyntaxError) {
                next = try scanner.next()
            } catch {
                throw SampleDecodingError(
                    reason: .malformed,
                    error: InputError(error.message, line: lineNumber, column: scanner.column(of: error.offset)))
            }
            guard let field = next else { break }
            guard fieldCount < header.roles.count else {
                throw SampleDecodingError(
                    reason: .malformed,
                    error: InputError(
                        "more fields than the header's \(header.roles.count) columns (quote fields that contain commas)",
                        line: lineNumber, column: scanner.column(of: field.span.lowerBound)))
            }
            switch header.roles[fieldCount] {
            case .ignored: break
            case .device: device = field
            case .latitude: latitude = field
            case .longitude: longitude = field
            case .time: time = field
            case .accuracy: accuracy = field
            }
            fieldCount += 1
        }

        func failure(_ reason: SampleRejection, _ message: String, _ field: CSVFieldScanner.Field?, _ name: String)
            -> SampleDecodingError
        {
            SampleDecodingError(
                reason: reason,
                error: InputError(
                    message, line: lineNumber, column: field.map { scanner.column(of: $0.span.lowerBound) },
                    field: name))
        }
        func present(_ field: CSVFieldScanner.Field?, _ name: String) throws(SampleDecodingError)
            -> CSVFieldScanner.Field
        {
            guard let field, !field.span.isEmpty else { throw failure(.missingField, "missing", field, name) }
            return field
        }
        func number(_ field: CSVFieldScanner.Field, _ name: String, _ reason: SampleRejection)
            throws(SampleDecodingError) -> Double
        {
            guard let value = parseCSVNumber(UnsafeBufferPointer(rebasing: bytes[field.span])) else {
                throw failure(reason, "\(quoted(scanner.text(of: field))) is not a number", field, name)
            }
            return value
        }

        let deviceField = try present(device, "device")
        guard isValidUTF8(UnsafeBufferPointer(rebasing: bytes[deviceField.span])) else {
            // Decoding would turn every invalid sequence into U+FFFD and merge different devices into one.
            throw failure(.malformed, "invalid UTF-8 (save the file as UTF-8)", deviceField, "device")
        }
        let deviceName = scanner.text(of: deviceField)
        let latitudeField = try present(latitude, "lat")
        let longitudeField = try present(longitude, "lon")
        let lat = try number(latitudeField, "lat", .invalidCoordinate)
        let lon = try number(longitudeField, "lon", .invalidCoordinate)
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(latitude: lat, longitude: lon)
        } catch {
            throw failure(
                .invalidCoordinate, coordinateMessage(error, longitude: lon),
                error.field == "lat" ? latitudeField : longitudeField, error.field)
        }
        let timeField = try present(time, "time")
        let timestamp: Timestamp
        do throws(InputError) {
            timestamp = try parseTime(UnsafeBufferPointer(rebasing: bytes[timeField.span]))
        } catch {
            throw failure(.invalidTime, error.message, timeField, "time")
        }
        var accuracyValue: Double?
        if let accuracy, !accuracy.span.isEmpty {
            let value = try number(accuracy, "accuracy", .invalidAccuracy)
            guard value.isFinite, value >= 0 else {
                throw failure(.invalidAccuracy, "must be a finite number ≥ 0", accuracy, "accuracy")
            }
            accuracyValue = value
        }
        return LocationSample(device: deviceName, coordinate: coordinate, time: timestamp, accuracy: accuracyValue)
    }

    // MARK: Shared helpers

    /// Whether `bytes` are valid UTF-8 (ASCII, the common case, is checked first without decoding).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// 3 when `bytes` starts with a UTF-8 byte order mark, else 0.
    static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// A CSV time: ISO-8601 when it has the date's `-` at index 4 (`2026-…`), else Unix seconds.
    private static func parseTime(_ text: UnsafeBufferPointer<UInt8>) throws(InputError) -> Timestamp {
        if text.count >= 10, text[4] == UInt8(ascii: "-") { return try Timestamp.parseISO8601(text) }
        return try Timestamp.parseUnixSeconds(text)
    }

    /// A CSV number: JSON's number syntax, also allowing a leading `+`; `nil` otherwise (NaN and inf included).
    private static func parseCSVNumber(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let start = text.first == UInt8(ascii: "+") ? 1 : 0
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: text[start...]))
        guard let token = try? scanner.readNumber(), scanner.isAtEnd else { return nil }
        return token.value
    }

    /// What is wrong with a coordinate; a latitude out of range beside a longitude that would be a valid latitude
    /// is probably a swapped pair, and the message says so.
    static func coordinateMessage(_ error: CoordinateError, longitude: Double) -> String {
        guard case .outOfRange(field: "lat", let latitude) = error, abs(latitude) <= 180, abs(longitude) <= 90 else {
            return error.description
        }
        return error.description + "; are lat and lon swapped?"
    }

    static func quoted(_ text: String) -> String {
        text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
    }
}

/// The known members of one NDJSON sample object, as scanned (syntax checked, meaning not yet).
private struct NDJSONFields {
    /// A scanned value, kept as tokens so that only the device becomes a `String`.
    enum Scanned {
        case absent
        case string(JSONScanner.StringToken)
        case number(JSONScanner.NumberToken)
        /// Any other kind, with its description for the message (`a boolean`, `an array`, …).
        case other(String)
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

    /// Checks the fields' meaning and builds the sample.
    func sample(_ scanner: JSONScanner, lineNumber: Int) throws(SampleDecodingError) -> LocationSample {
        func failure(_ reason: SampleRejection, _ message: String, _ key: Key) -> SampleDecodingError {
            let field = self[key]
            let column = if case .absent = field.value { nil as Int? } else { field.mark.column }
            return SampleDecodingError(
                reason: reason, error: InputError(message, line: lineNumber, column: column, field: key.name))
        }

        let device: String
        switch self[.device].value {
        case .absent:
            throw failure(.missingField, "missing", .device)
        case .string(let token):
            device = scanner.string(of: token)
            guard !device.isEmpty else { throw failure(.missingField, "must not be empty", .device) }
        case .number(let token):
            guard token.isIntegerText else {
                throw failure(.malformed, "expected a string or an integer, found \(scanner.text(of: token.span))", .device)
            }
            device = scanner.text(of: token.span)
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
        return LocationSample(device: device, coordinate: coordinate, time: time, accuracy: accuracy)
    }
}
