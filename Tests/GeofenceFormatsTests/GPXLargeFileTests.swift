import Foundation
import TestSupport
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// A GPX file of more than 200 MB, generated on disk, streams through ``GPXReader`` with every point arriving and
/// the reader holding no more than a few kilobytes between chunks. (The process's peak memory is measured in a
/// process of its own by `GPXMemoryTests` in CLITests: here parallel suites share the process.)
@Suite struct GPXLargeFileTests {
    static let minimumBytes = 200 << 20
    static let chunkSize = 1 << 20
    static let pointsPerSegment = 500_000
    /// 2024-01-01T00:00:00Z; point `i` is timed `i` seconds later.
    static let firstTime = Timestamp(microseconds: 1_704_067_200_000_000)

    /// Point `i`'s coordinates in millionths of a degree: scattered over the globe, never out of range.
    static func coordinate(_ i: Int) -> (latitude: Int, longitude: Int) {
        ((i &* 7_919) % 170_000_001 - 85_000_000, (i &* 104_729) % 360_000_001 - 180_000_000)
    }

    static func point(_ i: Int) -> GPXPoint {
        let (latitude, longitude) = coordinate(i)
        return GPXPoint(
            latitude: Double(latitude) / 1e6, longitude: Double(longitude) / 1e6,
            time: firstTime.adding(seconds: Double(i)), line: i + 5 + i / pointsPerSegment)
    }

    @Test func aFileOfMoreThan200MBStreamsWithEveryPointAndBoundedMemory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpx-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("large.gpx").path
        // Minutes of synchronous work in a debug build: on a thread of its own at the lowest priority, not on the
        // threads the suites running beside this one share (it held them for most of the run, timed tests included).
        let (written, read) = try await inBackground { (try Self.writeDocument(to: path), try Self.stream(path)) }
        #expect(written.bytes >= Self.minimumBytes)
        #expect(written.points < 31 * 86_400, "the template's times stay in January 2024")

        #expect(read.points == written.points)
        #expect(read.segments == (written.points + Self.pointsPerSegment - 1) / Self.pointsPerSegment)
        #expect(read.first == Self.point(0))
        #expect(read.last == Self.point(written.points - 1))
        #expect(read.largestBuffer < 4_096, "bytes held between chunks")
    }

    /// What ``stream(_:)`` saw of a file.
    struct Streamed: Sendable {
        var points = 0
        var segments = 0
        var first: GPXPoint?
        var last: GPXPoint?
        /// The most bytes the reader held between chunks.
        var largestBuffer = 0
    }

    /// Feeds the file at `path` to a ``GPXReader`` in ``chunkSize`` chunks, counting its points and segments.
    static func stream(_ path: String) throws -> Streamed {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? handle.close() }
        var reader = GPXReader()
        var events: [GPXEvent] = []
        var streamed = Streamed()
        var finished = false
        while !finished {
            let data = try handle.read(upToCount: chunkSize) ?? Data()
            if data.isEmpty {
                try reader.finish(into: &events)
                finished = true
            } else {
                try reader.feed([UInt8](data), into: &events)
                streamed.largestBuffer = max(streamed.largestBuffer, reader.bufferedByteCount)
            }
            for event in events {
                switch event {
                case .trackPoint(let point):
                    if streamed.first == nil { streamed.first = point }
                    streamed.last = point
                    streamed.points += 1
                case .segmentStart: streamed.segments += 1
                default: break
                }
            }
            events.removeAll(keepingCapacity: true)
        }
        return streamed
    }

    /// Writes one track of compact, timed points until the file passes ``minimumBytes``, 1 MiB at a time, and
    /// returns the number of points and bytes. The text is patched into a fixed template with pointers, since
    /// the test runs in debug builds.
    static func writeDocument(to path: String) throws -> (points: Int, bytes: Int) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        let template = Array(#"<trkpt lat="+00.000000" lon="+000.000000"><time>2024-01-01T00:00:00Z</time></trkpt>"#.utf8) + [0x0A]
        var buffer = [UInt8](repeating: 0, count: chunkSize + 4_096)
        var used = 0
        var bytes = 0
        func append(_ text: String) {
            for byte in text.utf8 {
                buffer[used] = byte
                used += 1
            }
        }
        func flush() {
            handle.write(Data(buffer[0..<used]))
            bytes += used
            used = 0
        }
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"GPXLargeFileTests\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk>\n")
        var i = 0
        while bytes + used < minimumBytes {
            if i % pointsPerSegment == 0 { append(i == 0 ? "<trkseg>\n" : "</trkseg><trkseg>\n") }
            let (latitude, longitude) = coordinate(i)
            buffer.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let p = base + used
                template.withUnsafeBufferPointer { template in
                    if let source = template.baseAddress { p.update(from: source, count: template.count) }
                }
                writeCoordinate(latitude, integerDigits: 2, at: p + 12)
                writeCoordinate(longitude, integerDigits: 3, at: p + 29)
                let day = i / 86_400
                let second = i % 86_400
                writeDigits(day + 1, count: 2, at: p + 56)
                writeDigits(second / 3_600, count: 2, at: p + 59)
                writeDigits(second / 60 % 60, count: 2, at: p + 62)
                writeDigits(second % 60, count: 2, at: p + 65)
            }
            used += template.count
            i += 1
            if used >= chunkSize { flush() }
        }
        append("</trkseg>\n</trk>\n</gpx>\n")
        flush()
        return (i, bytes)
    }

    /// Writes a sign and `value` millionths as `±D…D.DDDDDD` with `integerDigits` digits before the point.
    private static func writeCoordinate(_ value: Int, integerDigits: Int, at p: UnsafeMutablePointer<UInt8>) {
        p[0] = value < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        let magnitude = abs(value)
        writeDigits(magnitude / 1_000_000, count: integerDigits, at: p + 1)
        writeDigits(magnitude % 1_000_000, count: 6, at: p + 2 + integerDigits)
    }

    private static func writeDigits(_ value: Int, count: Int, at p: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var index = count - 1
        while index >= 0 {
            p[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }
}
