import GeofenceKit

extension SampleDecoder {
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
        try ndjsonFields(line: line, lineNumber: lineNumber).sample(in: line)
    }

    /// Decodes one NDJSON line into its values, the device's name left in the line (see ``SampleFields``): a line
    /// of the common shape in one pass (``plainNDJSONFields(line:)``), any other through its tokens.
    static func ndjsonFields(line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(SampleDecodingError)
        -> SampleFields
    {
        if let fields = plainNDJSONFields(line: line) { return fields }
        return try scannedNDJSONFields(line: line, lineNumber: lineNumber)
    }

    /// Decodes one NDJSON line through its tokens: every line, and every problem named.
    static func scannedNDJSONFields(line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(SampleDecodingError)
        -> SampleFields
    {
        var scanner = JSONScanner(line, firstLine: lineNumber)
        var fields = NDJSONFields()
        do throws(InputError) {
            try fields.scan(&scanner)
        } catch {
            throw SampleDecodingError(reason: .malformed, error: error)
        }
        return try fields.values(scanner, lineNumber: lineNumber)
    }
}
