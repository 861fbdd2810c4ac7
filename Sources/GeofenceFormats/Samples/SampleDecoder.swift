import GeofenceKit

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

    /// Whether `bytes` are valid UTF-8 (ASCII, the common case, is checked first without decoding).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !EightBytes.isASCII(bytes) else { return true }
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
