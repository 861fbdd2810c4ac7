import GeofenceKit

extension SampleDecoder {
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
        try csvFields(line: line, header: header, lineNumber: lineNumber).sample(in: line)
    }

    /// Decodes one CSV row into its values, the device's name left in the line (see ``SampleFields``): a row of the
    /// common shape in one pass (``plainCSVFields(line:header:)``), any other field by field.
    static func csvFields(line: UnsafeBufferPointer<UInt8>, header: CSVSampleHeader, lineNumber: Int)
        throws(SampleDecodingError) -> SampleFields
    {
        var bytes = line
        if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        if let fields = plainCSVFields(line: bytes, header: header) { return fields }
        return try scannedCSVFields(line: bytes, header: header, lineNumber: lineNumber)
    }

    /// Decodes one CSV row (without its carriage return) field by field: every row, and every problem named.
    static func scannedCSVFields(line bytes: UnsafeBufferPointer<UInt8>, header: CSVSampleHeader, lineNumber: Int)
        throws(SampleDecodingError) -> SampleFields
    {
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
        let deviceName: SampleFields.Device =
            deviceField.hasDoubledQuotes ? .text(scanner.text(of: deviceField)) : .span(deviceField.span)
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
        return SampleFields(device: deviceName, coordinate: coordinate, time: timestamp, accuracy: accuracyValue)
    }

    /// A CSV time: ISO-8601 when it has the date's `-` at index 4 (`2026-…`), else Unix seconds.
    static func parseTime(_ text: UnsafeBufferPointer<UInt8>) throws(InputError) -> Timestamp {
        if text.count >= 10, text[4] == UInt8(ascii: "-") { return try Timestamp.parseISO8601(text) }
        return try Timestamp.parseUnixSeconds(
            text, alternative: "an ISO-8601 time (YYYY-MM-DDThh:mm:ss[.fraction]Z or ±hh:mm)")
    }

    /// A CSV number: JSON's number syntax, also allowing a leading `+`; `nil` otherwise (NaN and inf included).
    private static func parseCSVNumber(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let start = text.first == UInt8(ascii: "+") ? 1 : 0
        if let (value, end, _) = PlainDecimalParser.parse(text, from: start), end == text.count { return value }
        var scanner = JSONScanner(UnsafeBufferPointer(rebasing: text[start...]))
        guard let token = try? scanner.readNumber(), scanner.isAtEnd else { return nil }
        return token.value
    }
}
