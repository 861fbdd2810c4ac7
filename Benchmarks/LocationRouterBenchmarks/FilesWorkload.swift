import Foundation
import GeofenceKit

/// The files workload of issue 15, generated from a seed: what a user brings when they bring their own data.
///
/// 10,000 devices, each with 20 circles bound to it (`properties.devices`), 200,000 GeoJSON features (35 MB);
/// 100 time steps of every device, 1,000,000 CSV lines with full-precision coordinates (60 MB; 92 MB as NDJSON),
/// time step by time step as a fleet feed sends them. Devices drive at 5–25 m/s in a random direction that
/// drifts, around Taipei; their circles (50–400 m) lie within about 1.3 km of their own path.
///
/// The same seed gives the same bytes on every machine, and the exact evaluation of those bytes gives
/// ``expectedEnters`` and ``expectedExits``: the benchmarks fail on any other count.
struct FilesWorkload: Sendable {
    static let devices = 10_000
    static let circlesPerDevice = 20
    static let steps = 100
    /// Seconds between a device's samples.
    static let stepSeconds: Int64 = 10
    /// 2026-11-21T08:00:00Z.
    static let firstTime: Int64 = 1_795_248_000
    static let seed: UInt64 = 15

    /// The events the exact profile gives for these files (counted once with the decoders and monitors of
    /// the commit that added the workload).
    static let expectedEnters = 37_040
    static let expectedExits = 37_055

    /// `regions.geojson`: a FeatureCollection, one feature per line.
    var geoJSON: [UInt8]
    /// `samples.csv`: `device,lat,lon,time` (Unix seconds), time step major.
    var csv: [UInt8]
    /// The same samples as NDJSON lines.
    var ndjson: [UInt8]

    static let shared = FilesWorkload()

    init() {
        var geoJSON = #"{"type":"FeatureCollection","features":["#.utf8 + [UInt8(ascii: "\n")]
        var csv = Array("device,lat,lon,time\n".utf8)
        var ndjson: [UInt8] = []
        geoJSON.reserveCapacity(40 << 20)
        csv.reserveCapacity(66 << 20)
        ndjson.reserveCapacity(100 << 20)

        var paths: [[(latitude: Double, longitude: Double)]] = []
        paths.reserveCapacity(Self.devices)
        for device in 0..<Self.devices {
            var random = SplitMix64(seed: Self.seed, stream: UInt64(device), purpose: 1)
            paths.append(Self.path(&random))
        }
        for device in 0..<Self.devices {
            var random = SplitMix64(seed: Self.seed, stream: UInt64(device), purpose: 2)
            for circle in 0..<Self.circlesPerDevice {
                // Centred near a random point of the device's own path, so that some circles are crossed.
                let point = paths[device][Int(random.next() % UInt64(Self.steps))]
                let latitude = point.latitude + random.uniform(-0.012...0.012)
                let longitude = point.longitude + random.uniform(-0.012...0.012)
                let radius = (random.uniform(50...400) * 1_000).rounded() / 1_000
                let separator = device == 0 && circle == 0 ? "" : ",\n"
                geoJSON += (separator + #"{"type":"Feature","id":"d\#(device)-c\#(circle)","properties":{"radius":\#(radius),"#
                    + #""devices":["device-\#(device)"]},"geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude)]}}"#)
                    .utf8
            }
        }
        geoJSON += "\n]}\n".utf8
        for step in 0..<Self.steps {
            let time = Self.firstTime + Int64(step) * Self.stepSeconds
            for device in 0..<Self.devices {
                let point = paths[device][step]
                csv += "device-\(device),\(point.latitude),\(point.longitude),\(time)\n".utf8
                ndjson += #"{"device":"device-\#(device)","lat":\#(point.latitude),"lon":\#(point.longitude),"time":\#(time)}"#
                    .utf8
                ndjson.append(UInt8(ascii: "\n"))
            }
        }
        self.geoJSON = geoJSON
        self.csv = csv
        self.ndjson = ndjson
    }

    /// One device's positions at every step: a drive at a steady speed whose heading drifts.
    private static func path(_ random: inout SplitMix64) -> [(latitude: Double, longitude: Double)] {
        var latitude = 25.03 + random.uniform(-0.15...0.15)
        var longitude = 121.55 + random.uniform(-0.15...0.15)
        let speed = random.uniform(5...25)
        var heading = random.uniform(0...(2 * Double.pi))
        var points: [(latitude: Double, longitude: Double)] = []
        points.reserveCapacity(steps)
        for _ in 0..<steps {
            points.append((latitude, longitude))
            heading += random.uniform(-0.3...0.3)
            let metres = speed * Double(stepSeconds)
            latitude += metres * cos(heading) / 111_320
            longitude += metres * sin(heading) / (111_320 * cos(latitude * .pi / 180))
        }
        return points
    }

    /// The files ``write(to:)`` writes: the workload, then the inputs that time its parts apart (the regions with
    /// only the CSV header on standard input; the samples with no regions).
    static let fileNames = ["regions.geojson", "samples.csv", "samples.ndjson", "header.csv", "empty.geojson"]

    /// Writes ``fileNames`` into `directory` (created if needed), for timing the CLI on them.
    func write(to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let header = Array("device,lat,lon,time\n".utf8)
        let empty = Array(#"{"type":"FeatureCollection","features":[]}"#.utf8) + [0x0A]
        for (name, bytes) in zip(Self.fileNames, [geoJSON, csv, ndjson, header, empty]) {
            try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
        }
    }
}
