import Foundation
import TestSupport
import Testing

/// Bounded memory for a GPX file of more than 200 MB, measured in a process that does nothing else: the built
/// `location-router check`, whose own peak resident memory is sampled while it streams the file. (Inside the test
/// process the peak also counts every other suite running in parallel.)
@Suite struct GPXMemoryTests {
    @Test func checkingA200MBFileStaysWithinAFewMegabytes() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/large.gpx"
        // Seconds of string building in a debug build: on a thread of its own at the lowest priority, not on the
        // threads the suites running beside this one share.
        let points = try await inBackground { try Self.writeTrack(to: path, minimumBytes: 200 << 20) }

        let run = try await runExecutableBounded(["check", "--json", path], stdin: "/dev/null", folder: directory)
        #expect(run.status == 0, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["trackPoints"] as? Int == points)
        #expect(object["timedTrackPoints"] as? Int == points)
        #if os(Linux)
        #expect(run.peakResidentBytes < 64 << 20, "peak resident memory \(run.peakResidentBytes >> 20) MiB")
        #endif
    }

    /// One timed track written 1 MiB at a time until the file passes `minimumBytes`; returns the point count.
    static func writeTrack(to path: String, minimumBytes: Int) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n".utf8))
        var written = 0
        var points = 0
        var chunk = ""
        while written < minimumBytes {
            chunk.removeAll(keepingCapacity: true)
            for _ in 0..<10_000 {
                let seconds = points % 86_400
                chunk += "<trkpt lat=\"\(Double(points % 170_000) / 2_000 - 42.5)\" lon=\"\(Double(points % 360_000) / 1_000 - 180)\">"
                chunk += "<time>2024-01-01T\(Self.two(seconds / 3_600)):\(Self.two(seconds / 60 % 60)):\(Self.two(seconds % 60))Z</time></trkpt>\n"
                points += 1
            }
            let data = Data(chunk.utf8)
            try handle.write(contentsOf: data)
            written += data.count
        }
        try handle.write(contentsOf: Data("</trkseg></trk></gpx>\n".utf8))
        return points
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
