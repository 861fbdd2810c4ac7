import GeofenceKit

/// The two text formats of location samples.

public enum SampleFormat: String, Sendable, CaseIterable {
    /// One JSON object per line.
    case ndjson
    /// A header line naming the columns, then one row per sample.
    case csv

    /// The format of a stream, judged from its first non-blank line: a `{` (after an optional byte order mark
    /// and whitespace) starts NDJSON; anything else must be a CSV header.
    public static func detect(firstLine line: UnsafeBufferPointer<UInt8>) -> SampleFormat {
        for byte in line.dropFirst(SampleDecoder.byteOrderMarkLength(line)) {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): continue
            case UInt8(ascii: "{"): return .ndjson
            default: return .csv
            }
        }
        return .csv
    }

    /// The format of a stream judged from its first non-blank line; see ``detect(firstLine:)-(UnsafeBufferPointer<UInt8>)``.
    public static func detect(firstLine line: ArraySlice<UInt8>) -> SampleFormat {
        line.withUnsafeBufferPointer { detect(firstLine: $0) }
    }
}
