import GeofenceKit

/// The header line of a CSV sample file: which column holds which field.
///
/// Columns are matched by name, in any order, ignoring case and surrounding spaces: `device`, `lat`, `lon` and
/// `time` are required, `accuracy` optional, and other columns are ignored (exports often carry speed, heading
/// and the like). A required name that appears twice is an error, since either choice could be wrong.

public struct CSVSampleHeader: Sendable, Equatable {
    /// What each column holds, by column index.
    enum Role: UInt8, Sendable {
        case ignored, device, latitude, longitude, time, accuracy

        /// The header name of the field, which is also the field name in errors.
        var name: String {
            switch self {
            case .ignored: ""
            case .device: "device"
            case .latitude: "lat"
            case .longitude: "lon"
            case .time: "time"
            case .accuracy: "accuracy"
            }
        }
    }

    /// The column names as written (unquoted and trimmed).
    public let columns: [String]
    let roles: [Role]

    /// The 0-based column of each field.
    public let deviceColumn: Int
    public let latitudeColumn: Int
    public let longitudeColumn: Int
    public let timeColumn: Int
    public let accuracyColumn: Int?

    /// Whether the columns are `device,lat,lon,time`, in this order and no others: rows that
    /// ``OrderedCSVRow`` reads.
    var isDeviceLatLonTime: Bool { roles == [.device, .latitude, .longitude, .time] }

    /// Reads a header line (a leading byte order mark and a trailing carriage return are ignored).
    /// - Throws: `missingField` naming the first required column that is absent; `malformed` for bad quoting,
    ///   a repeated column, or XML (a GPX file given as samples).
    public init(line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(SampleDecodingError) {
        var bytes = line
        if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        let start = SampleDecoder.byteOrderMarkLength(bytes)
        // XML where samples were expected is most likely a GPX file given as a sample stream: say so, rather than
        // report the quote of its first attribute.
        if bytes[start...].first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) == UInt8(ascii: "<") {
            throw SampleDecodingError(
                reason: .malformed,
                error: InputError(
                    "expected a CSV header (device,lat,lon,time[,accuracy]) or an NDJSON object, found XML ('<'): "
                        + "a GPX file is not a sample stream; play it with the gpx:PATH source (gpx:- for stdin)",
                    line: lineNumber))
        }
        var scanner = CSVFieldScanner(bytes, startingAt: start)
        var columns: [String] = []
        var roles: [Role] = []
        var firstColumn: [Role: Int] = [:]
        while true {
            let field: CSVFieldScanner.Field?
            do throws(CSVSyntaxError) {
                field = try scanner.next()
            } catch {
                throw SampleDecodingError(
                    reason: .malformed,
                    error: InputError(
                        "CSV header: \(error.message)", line: lineNumber, column: scanner.column(of: error.offset)))
            }
            guard let field else { break }
            let name = scanner.text(of: field)
            let role = Self.role(named: name)
            if role != .ignored {
                if let first = firstColumn[role] {
                    throw SampleDecodingError(
                        reason: .malformed,
                        error: InputError(
                            "column \"\(role.name)\" appears twice in the CSV header (columns \(first + 1) and "
                                + "\(columns.count + 1))", line: lineNumber,
                            column: scanner.column(of: field.span.lowerBound), field: role.name))
                }
                firstColumn[role] = columns.count
            }
            columns.append(name)
            roles.append(role)
        }
        func column(_ role: Role) throws(SampleDecodingError) -> Int {
            guard let index = firstColumn[role] else {
                throw SampleDecodingError(
                    reason: .missingField,
                    error: InputError(
                        "the CSV header has no \"\(role.name)\" column (expected device,lat,lon,time[,accuracy]; "
                            + "found \(SampleDecoder.quoted(columns.joined(separator: ","))))", line: lineNumber,
                        field: role.name))
            }
            return index
        }
        deviceColumn = try column(.device)
        latitudeColumn = try column(.latitude)
        longitudeColumn = try column(.longitude)
        timeColumn = try column(.time)
        accuracyColumn = firstColumn[.accuracy]
        self.columns = columns
        self.roles = roles
    }

    /// Reads a header line; see ``init(line:lineNumber:)-(UnsafeBufferPointer<UInt8>,_)``.
    public init(line: ArraySlice<UInt8>, lineNumber: Int) throws(SampleDecodingError) {
        self = try line.withUnsafeBufferPointer { bytes throws(SampleDecodingError) in
            try CSVSampleHeader(line: bytes, lineNumber: lineNumber)
        }
    }

    /// Reads a header from text, for tests and callers that already hold a `String`.
    public init(_ text: String, lineNumber: Int = 1) throws(SampleDecodingError) {
        try self.init(line: ArraySlice(text.utf8), lineNumber: lineNumber)
    }

    private static func role(named name: String) -> Role {
        switch name.lowercased() {
        case "device": .device
        case "lat": .latitude
        case "lon": .longitude
        case "time": .time
        case "accuracy": .accuracy
        default: .ignored
        }
    }
}
