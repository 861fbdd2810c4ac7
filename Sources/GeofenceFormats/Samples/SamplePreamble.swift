import GeofenceKit

/// The lines before a sample stream's first sample: blank lines, then a CSV file's header (an NDJSON stream has
/// none, its first line tells the format).
///
/// One function reads it for both who need it: the router, which reads the stream in order, and the reader that
/// starts decoding blocks before the router has seen the first one (while the regions load). Both must agree on
/// the format the rest of the stream decodes as, so neither keeps a copy of these rules.
public enum SamplePreamble {
    /// Reads the preamble from the lines of `bytes` (line `firstLine` first).
    /// - Parameter format: the format the user gave, `nil` to detect it.
    /// - Returns: how the rest of the stream decodes, where its first sample line starts in `bytes` and that
    ///   line's number; `nil` when every line is blank (the preamble goes on in the next block).
    /// - Throws: a CSV header's error, or a line longer than `maxLineLength`: fatal whatever the policy, since
    ///   without the header (or the line that tells the format) no line can be read.
    public static func read(_ bytes: [UInt8], firstLine: Int, format: SampleFormat?, maxLineLength: Int)
        throws(SampleDecodingError) -> (format: SampleBlockDecoder.Format, start: Int, line: Int)?
    {
        var start = 0
        var line = firstLine
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            guard end - start <= maxLineLength else { throw lineTooLong(line, maxLineLength: maxLineLength) }
            var text = bytes[start..<end]
            if text.last == UInt8(ascii: "\r") { text = text.dropLast() }
            if !SampleDecoder.isBlank(text) {
                switch format ?? SampleFormat.detect(firstLine: text) {
                case .ndjson: return (.ndjson, start, line)
                case .csv:
                    do {
                        return (.csv(try CSVSampleHeader(line: text, lineNumber: line)), end + 1, line + 1)
                    } catch where format == nil {
                        // Detected, not chosen: a stream of NDJSON whose first line is broken reads as a CSV header
                        // too, and the message should say how the format was told.
                        var detected = error
                        detected.error.message += "; the format was detected from this first line (a line starting "
                            + "with '{' is NDJSON): --source stdin:ndjson reads NDJSON whatever the first line"
                        throw detected
                    }
                }
            }
            start = end + 1
            line += 1
        }
        return nil
    }

    /// Line `line`, in the preamble, is longer than `maxLineLength` bytes.
    public static func lineTooLong(_ line: Int, maxLineLength: Int) -> SampleDecodingError {
        SampleDecodingError(
            reason: .lineTooLong,
            error: InputError(
                "the first line (a CSV header, or the line that tells the format) is longer than "
                    + "\(maxLineLength) bytes", line: line))
    }
}
