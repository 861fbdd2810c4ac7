import GeofenceKit
import GeofenceFormats

/// Streaming GPX parsing: ``GPXReader`` over a ~50 MB recording held in memory, fed in 1 MiB chunks as `check`
/// reads files, so the figure is the reader's alone (no disk).
enum GPXBenchmark {
    static let documentBytes = 50 << 20
    static let chunkSize = 1 << 20

    static let parse = Benchmark(
        name: "gpxParse",
        summary: "one core: GPXReader over a ~50 MB GPX track (ele, time, heart-rate extensions) in 1 MiB chunks",
        unit: "points",
        prepare: {
            let text = GPXBenchmark.document()
            let chunks = GPXBenchmark.chunks(of: text)
            let bytes = text.count
            return {
                var reader = GPXReader()
                var events: [GPXEvent] = []
                var points = 0
                for chunk in chunks {
                    try reader.feed(chunk, into: &events)
                    points += trackPoints(in: events)
                    events.removeAll(keepingCapacity: true)
                }
                try reader.finish(into: &events)
                return Outcome(units: points + trackPoints(in: events), bytes: bytes)
            }
        })

    private static func trackPoints(in events: [GPXEvent]) -> Int {
        var count = 0
        for case .trackPoint in events { count += 1 }
        return count
    }

    /// A device export as real files are written: indented, one point per five lines, elevation and time on every
    /// point, a Garmin heart-rate extension on every fourth, a new segment every 10,000 points.
    static func document() -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="location-router-bench" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
              <metadata><name>benchmark</name></metadata>
              <trk>
                <name>ride</name>
                <trkseg>

            """
        var bytes: [UInt8] = []
        bytes.reserveCapacity(documentBytes + 4_096)
        var generator = SplitMix64(seed: 42)
        var latitude = 25.0478
        var longitude = 121.5170
        var time = Timestamp(microseconds: 1_795_248_000_000_000)
        var index = 0
        while bytes.count + text.utf8.count < documentBytes {
            if index > 0 && index % 10_000 == 0 { text += "    </trkseg>\n    <trkseg>\n" }
            latitude += (generator.unit() - 0.5) * 1e-4
            longitude += (generator.unit() - 0.5) * 1e-4
            time = time.adding(seconds: 1)
            let elevation = Double(Int(generator.unit() * 10_000)) / 10
            text += "      <trkpt lat=\"\(rounded(latitude))\" lon=\"\(rounded(longitude))\">\n"
            text += "        <ele>\(elevation)</ele>\n        <time>\(time.iso8601)</time>\n"
            if index % 4 == 0 {
                text += "        <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(120 + index % 40)</gpxtpx:hr>"
                text += "</gpxtpx:TrackPointExtension></extensions>\n"
            }
            text += "      </trkpt>\n"
            index += 1
            if text.utf8.count > 1 << 16 {
                bytes += text.utf8
                text = ""
            }
        }
        text += "    </trkseg>\n  </trk>\n</gpx>\n"
        bytes += text.utf8
        return bytes
    }

    /// Seven decimals, as GPS exports write them.
    private static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }

    static func chunks(of document: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: document.count, by: chunkSize).map {
            Array(document[$0..<min(document.count, $0 + chunkSize)])
        }
    }
}
