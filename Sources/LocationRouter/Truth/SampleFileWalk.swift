import Foundation
import GeofenceKit
import GeofenceFormats

/// Reads a sample stream to its end and hands over the samples a run would evaluate: lines decoded as the run
/// decodes them (format detected from the first line when not given), invalid lines and samples older than their
/// device's previous one skipped, as the run rejects them.
enum SampleFileWalk {
    /// - Throws: ``InputReadError`` when the descriptor cannot be read.
    static func walk(_ input: SampleInput, _ visit: (LocationSample) -> Void) throws {
        var lastTimes: [String: Int64] = [:]
        var splitter = LineSplitter(maxLineLength: input.maxLineLength)
        var format = input.format
        var header: CSVSampleHeader?
        func take(_ pieces: [LineSplitter.Piece]) {
            for piece in pieces {
                guard case .line(let bytes, let lineNumber) = piece, !SampleDecoder.isBlank(bytes) else { continue }
                let chosen = format ?? SampleFormat.detect(firstLine: bytes)
                format = chosen
                let sample: LocationSample
                do throws(SampleDecodingError) {
                    if chosen == .ndjson {
                        sample = try SampleDecoder.decodeNDJSON(line: bytes, lineNumber: lineNumber)
                    } else if let header {
                        sample = try SampleDecoder.decodeCSV(line: bytes, header: header, lineNumber: lineNumber)
                    } else {
                        header = try CSVSampleHeader(line: bytes, lineNumber: lineNumber)
                        continue
                    }
                } catch {
                    continue
                }
                guard sample.time.microseconds >= lastTimes[sample.device, default: .min] else { continue }
                lastTimes[sample.device] = sample.time.microseconds
                visit(sample)
            }
        }
        let reader = ChunkedFileReader(descriptor: input.descriptor, name: input.name)
        while let chunk = try reader.next() { take(splitter.lines(in: chunk)) }
        take(splitter.finish())
    }
}
