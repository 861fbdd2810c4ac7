import Foundation
import TestSupport
import Testing

/// A regions file is decoded feature by feature: checking one costs about its own size in (file-backed) memory,
/// not the JSON tree of the whole file (about ten times its size).
@Suite struct GeoJSONMemoryTests {
    @Test func checkingALargeRegionsFileCostsAboutItsSize() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/large.geojson"
        let (features, bytes) = try Self.writePolygons(to: path, minimumBytes: 24 << 20)

        let run = try await runExecutableBounded(["check", "--json", path], stdin: "/dev/null", folder: directory)
        #expect(run.status == 0, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["regions"] as? Int == features)
        #if os(Linux)
        #expect(run.peakResidentBytes < bytes + (48 << 20), "peak resident memory \(run.peakResidentBytes >> 20) MiB")
        #endif
    }

    /// Twelve-sided polygons, written 1 MiB at a time; returns the feature count and the file's size.
    static func writePolygons(to path: String, minimumBytes: Int) throws -> (features: Int, bytes: Int) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8))
        var written = 0
        var features = 0
        var chunk = ""
        while written < minimumBytes {
            chunk.removeAll(keepingCapacity: true)
            for _ in 0..<2_000 {
                let latitude = 25 + Double(features % 1_000) / 1_000
                let longitude = 121 + Double(features / 1_000 % 1_000) / 1_000
                let ring = (0...12).map { k -> String in
                    let angle = Double(k % 12) / 12 * 2 * .pi
                    return "[\(longitude + 0.0004 * cos(angle)),\(latitude + 0.0004 * sin(angle))]"
                }
                chunk += features == 0 ? "" : ",\n"
                chunk += #"{"type":"Feature","id":"r\#(features)","geometry":{"type":"Polygon","coordinates":[[\#(ring.joined(separator: ","))]]},"properties":{"name":"store \#(features)"}}"#
                features += 1
            }
            try handle.write(contentsOf: Data(chunk.utf8))
            written += chunk.utf8.count
        }
        try handle.write(contentsOf: Data("\n]}\n".utf8))
        return (features, written + 48)
    }
}
