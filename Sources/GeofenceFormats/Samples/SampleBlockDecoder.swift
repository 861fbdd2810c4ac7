#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

/// Decodes a block of whole sample lines (``LineBlock``) into columns (``DecodedSampleBlock``), on whatever
/// thread calls it.
///
/// Blocks are independent once the stream's format (and a CSV file's header) is known, so a reader can hand
/// each block to another core as soon as it is read; only what depends on the lines before — each device's number
/// and order, the counts — is left to the one router that walks the decoded blocks in order. A line decodes here
/// exactly as ``SampleDecoder`` decodes it alone: the same samples, the same rejections with the same lines,
/// columns and messages.
public enum SampleBlockDecoder {
    /// The format of the lines: NDJSON, or CSV with the columns its header named.
    public enum Format: Sendable, Equatable {
        case ndjson
        case csv(CSVSampleHeader)
    }

    /// Decodes the lines of `bytes` from offset `start`, whose line is number `firstLine`.
    /// - Parameters:
    ///   - maxLineLength: lines longer than this are rejected as ``SampleRejection/lineTooLong``.
    ///   - buffers: where to take the samples' array from (a finished block's), if anywhere.
    public static func decode(
        _ bytes: [UInt8], from start: Int = 0, firstLine: Int, as format: Format, maxLineLength: Int,
        buffers: SampleBufferPool? = nil
    ) -> DecodedSampleBlock {
        // About 60 bytes per CSV sample and 90 per NDJSON one: reserving for that avoids regrowing the columns.
        var block = DecodedSampleBlock(
            bytes: bytes, samples: buffers?.takeSamples() ?? [], capacity: (bytes.count - start) / 48 + 1)
        // Names that are not the line's own bytes (escapes, doubled quotes), and the samples they belong to.
        var decodedNames: [UInt8] = []
        var decodedNameSamples: [Int] = []
        let seed = DeviceNameHash.seed
        // Taken out of the format once: a switch over it per line copied the header (a retain and a release).
        let csvHeader: CSVSampleHeader? = if case .csv(let header) = format { header } else { nil }
        let isOrderedCSV = csvHeader?.isDeviceLatLonTime ?? false
        let isNDJSON = csvHeader == nil
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var lineStart = start
            var lineNumber = firstLine
            while lineStart < buffer.count {
                // Lines of the shape feeds write, read with their line ends; the first other line the general way
                // below.
                if isOrderedCSV {
                    appendOrderedLines(
                        OrderedCSVRow.self, buffer, from: &lineStart, lineNumber: &lineNumber,
                        maxLineLength: maxLineLength, seed: seed, to: &block.samples)
                } else if isNDJSON {
                    appendOrderedLines(
                        OrderedNDJSONLine.self, buffer, from: &lineStart, lineNumber: &lineNumber,
                        maxLineLength: maxLineLength, seed: seed, to: &block.samples)
                }
                guard lineStart < buffer.count else { break }
                let lineEnd =
                    memchr(base + lineStart, 0x0A, buffer.count - lineStart).map {
                        UnsafeRawPointer($0) - UnsafeRawPointer(base)
                    } ?? buffer.count
                defer {
                    lineStart = lineEnd + 1
                    lineNumber += 1
                }
                guard lineEnd - lineStart <= maxLineLength else {
                    block.rejections.append(
                        .init(
                            samplesBefore: block.count,
                            error: SampleDecodingError(
                                reason: .lineTooLong,
                                error: InputError("line is longer than \(maxLineLength) bytes", line: lineNumber))))
                    continue
                }
                var end = lineEnd
                if end > lineStart, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<end])
                if SampleDecoder.isBlank(line) { continue }
                let fields: SampleFields
                do throws(SampleDecodingError) {
                    if let csvHeader {
                        fields = try SampleDecoder.csvFields(line: line, header: csvHeader, lineNumber: lineNumber)
                    } else {
                        fields = try SampleDecoder.ndjsonFields(line: line, lineNumber: lineNumber)
                    }
                } catch {
                    block.rejections.append(.init(samplesBefore: block.count, error: error))
                    continue
                }
                let name: Range<Int>
                var nameHash: UInt64 = 0
                switch fields.device {
                case .span(let span):
                    name = span.lowerBound + lineStart..<span.upperBound + lineStart
                    nameHash = DeviceNameHash.hash(UnsafeBufferPointer(rebasing: buffer[name]), seed: seed)
                case .text(let text):
                    // Placed after the lines once they are all read (the buffer cannot grow under this pointer).
                    decodedNameSamples.append(block.count)
                    name = decodedNames.count..<decodedNames.count + text.utf8.count
                    decodedNames += text.utf8
                }
                block.samples.append(
                    .init(
                        lineNumber: lineNumber, name: name, nameHash: nameHash, latitude: fields.coordinate.latitude,
                        longitude: fields.coordinate.longitude, time: fields.time.microseconds,
                        accuracy: fields.accuracy ?? .nan))
            }
        }
        if !decodedNameSamples.isEmpty {
            let offset = block.bytes.count
            block.bytes += decodedNames
            block.bytes.withUnsafeBufferPointer { buffer in
                for sample in decodedNameSamples {
                    let name = block.samples[sample].name
                    block.samples[sample].name = name.lowerBound + offset..<name.upperBound + offset
                    block.samples[sample].nameHash = DeviceNameHash.hash(
                        UnsafeBufferPointer(rebasing: buffer[block.samples[sample].name]), seed: seed)
                }
            }
        }
        return block
    }

    /// Appends the lines from `lineStart` on while `Reader` reads them, and stops at the first it does not read
    /// (or at the end): `lineStart` and `lineNumber` are then that line's.
    ///
    /// Apart from ``decode(_:from:firstLine:as:maxLineLength:buffers:)``, whose general path makes it too large for
    /// the compiler to inline the readers and their number parsers into it (a call and its saved registers per
    /// coordinate); in this small loop they are inlined. The samples are gathered in a small buffer and appended
    /// to the array a chunk at a time: an append per line checked the array's uniqueness (a call into the runtime)
    /// and its capacity for every line.
    @inline(never)
    private static func appendOrderedLines<Reader: OrderedLineReader>(
        _ reader: Reader.Type, _ buffer: UnsafeBufferPointer<UInt8>, from lineStart: inout Int,
        lineNumber: inout Int, maxLineLength: Int, seed: UInt64, to samples: inout [DecodedSampleBlock.Sample]
    ) {
        withUnsafeTemporaryAllocation(of: DecodedSampleBlock.Sample.self, capacity: chunkSize) { chunk in
            guard let chunkBase = chunk.baseAddress else { return }
            var filled = 0
            while lineStart < buffer.count, let row = Reader.read(buffer, from: lineStart),
                row.lineEnd - lineStart <= maxLineLength
            {
                // A sample is plain data (no reference inside): initialised here, it needs no deinitialising.
                (chunkBase + filled).initialize(
                    to: .init(
                        lineNumber: lineNumber, name: row.name,
                        nameHash: DeviceNameHash.hash(UnsafeBufferPointer(rebasing: buffer[row.name]), seed: seed),
                        latitude: row.latitude, longitude: row.longitude, time: row.time, accuracy: .nan))
                filled &+= 1
                lineStart = row.lineEnd + 1
                lineNumber += 1
                if filled == chunk.count {
                    samples.append(contentsOf: chunk)
                    filled = 0
                }
            }
            samples.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<filled]))
        }
    }

    /// Samples gathered before they are appended to the block's array (5 KiB on the stack).
    private static let chunkSize = 80
}
