import GeofenceKit
import GeofenceFormats

/// Reads events to score: NDJSON (one object per line, blank lines skipped) or one JSON array of objects.
public enum EventFileReader {
    /// What a body or file held: the events to score, and how many objects had a kind that is not scored.
    public struct Contents: Sendable, Equatable {
        public var events: [ScoredEvent] = []
        /// `dwell`, `state`, `failed` and unknown kinds: read, not scored.
        public var ignored = 0
    }

    /// Parses `bytes`: a JSON array when the first non-blank byte is `[`, NDJSON otherwise.
    /// - Throws: an ``InputError`` with the line (and column) of the first invalid line or event.
    public static func read(_ bytes: [UInt8]) throws(InputError) -> Contents {
        var contents = Contents()
        let first = bytes.first { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "[") {
            let value = try JSONParser.parse(bytes)
            guard case .array(let elements) = value.kind else { throw value.error("expected an array of events", path: "") }
            for element in elements { try add(element, to: &contents) }
            return contents
        }
        var splitter = LineSplitter(maxLineLength: 1 << 20)
        for piece in splitter.lines(in: bytes) + splitter.finish() {
            switch piece {
            case .tooLong(let number):
                throw InputError("line is longer than \(1 << 20) bytes", line: number)
            case .line(let line, let number):
                guard !SampleDecoder.isBlank(line) else { continue }
                do throws(InputError) {
                    try add(try JSONParser.parse(Array(line)), to: &contents)
                } catch {
                    var located = error
                    located.line = number
                    throw located
                }
            }
        }
        return contents
    }

    private static func add(_ value: JSONValue, to contents: inout Contents) throws(InputError) {
        if let event = try ScoredEvent(object: value) {
            contents.events.append(event)
        } else {
            contents.ignored += 1
        }
    }
}
