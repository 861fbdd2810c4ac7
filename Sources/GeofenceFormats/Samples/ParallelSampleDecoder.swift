import Dispatch
import GeofenceKit
import Synchronization

/// Decodes the lines of a chunk on several threads at once: the lines are cut into contiguous parts, one per
/// core, each part is decoded on a thread of its own, and the results come back in line order.
///
/// Only the decoding is parallel: what depends on the lines before — the format, the CSV header, each device's
/// order, the counts and the rejection messages — stays with the caller, which walks the results in order, so
/// a run reads exactly as it does line by line. A part is decoded on the calling thread when the lines are too
/// few to be worth a thread hop.
public struct ParallelSampleDecoder: Sendable {
    /// What became of one line.
    public enum Decoded: Sendable {
        case sample(LocationSample)
        case rejected(SampleDecodingError)
        /// A blank line, or a line too long to decode (the splitter's ``LineSplitter/Piece/tooLong(number:)``).
        case skipped
    }

    /// The format of the lines: NDJSON, or CSV with the columns its header named.
    public enum Format: Sendable {
        case ndjson
        case csv(CSVSampleHeader)
    }

    /// How many parts a chunk is cut into (at most).
    public let parts: Int
    /// The fewest lines worth a part of their own.
    public let minimumLinesPerPart: Int

    public init(parts: Int, minimumLinesPerPart: Int = 256) {
        self.parts = max(1, parts)
        self.minimumLinesPerPart = max(1, minimumLinesPerPart)
    }

    /// What the lines of one call became, in line order: the parts as their threads left them (joining them into
    /// one array would copy every result once more).
    public struct DecodedLines: RandomAccessCollection, Sendable {
        @usableFromInline let parts: [[Decoded]]
        @usableFromInline let partLength: Int
        public let count: Int

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }

        /// Inlinable, so that the router's walk over a chunk's results is one indexed read each, not a call.
        @inlinable public subscript(position: Int) -> Decoded {
            parts[position / partLength][position % partLength]
        }
    }

    /// Decodes `lines` (in order) as `format`; one result per line, in the same order.
    public func decode(_ lines: ArraySlice<LineSplitter.Piece>, as format: Format) -> DecodedLines {
        let partCount = min(parts, max(1, lines.count / minimumLinesPerPart))
        if partCount == 1 {
            return DecodedLines(parts: [Self.decodePart(lines, as: format)], partLength: max(1, lines.count), count: lines.count)
        }
        let partLength = (lines.count + partCount - 1) / partCount
        let results = Mutex<[[Decoded]]>(Array(repeating: [], count: partCount))
        DispatchQueue.concurrentPerform(iterations: partCount) { part in
            let start = lines.startIndex + part * partLength
            let end = min(start + partLength, lines.endIndex)
            let decoded = Self.decodePart(lines[start..<end], as: format)
            results.withLock { $0[part] = decoded }
        }
        let parts = results.withLock { parts in
            defer { parts = [] }
            return parts
        }
        return DecodedLines(parts: parts, partLength: partLength, count: lines.count)
    }

    private static func decodePart(_ lines: ArraySlice<LineSplitter.Piece>, as format: Format) -> [Decoded] {
        var decoded: [Decoded] = []
        decoded.reserveCapacity(lines.count)
        for piece in lines {
            guard case .line(let line, let number) = piece, !SampleDecoder.isBlank(line) else {
                decoded.append(.skipped)
                continue
            }
            do throws(SampleDecodingError) {
                switch format {
                case .ndjson:
                    decoded.append(.sample(try SampleDecoder.decodeNDJSON(line: line, lineNumber: number)))
                case .csv(let header):
                    decoded.append(.sample(try SampleDecoder.decodeCSV(line: line, header: header, lineNumber: number)))
                }
            } catch {
                decoded.append(.rejected(error))
            }
        }
        return decoded
    }
}
