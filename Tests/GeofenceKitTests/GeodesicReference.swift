import Foundation

/// Reference values computed once with geographiclib (Karney's algorithm) by
/// `Fixtures/make-geodesic-reference.py` and committed as `Fixtures/geodesic-reference.json`.
///
/// Tests compare against these instead of against formulas of their own, so that an error shared by the
/// implementation and its test cannot go unnoticed.
struct GeodesicReference: Sendable {
    /// A geodesic between two positions (degrees) and its length (metres).
    struct Line: Sendable {
        let latitude1, longitude1, latitude2, longitude2, distance: Double
    }

    /// A geodesic leaving a position on an azimuth for a distance, and where it ends.
    struct Destination: Sendable {
        let latitude, longitude, bearing, distance, endLatitude, endLongitude: Double
    }

    /// A point near a circle's boundary and whether its geodesic distance to the centre is at most the radius.
    struct CirclePoint: Sendable {
        let latitude, longitude: Double
        let isInside: Bool
    }

    struct Circle: Sendable, CustomStringConvertible {
        let latitude, longitude, radius: Double
        let points: [CirclePoint]

        var description: String { "r=\(radius) m at (\(latitude), \(longitude))" }
    }

    let geographiclibVersion: String
    let lines: [Line]
    let nearlyAntipodalLines: [Line]
    let destinations: [Destination]
    let circles: [Circle]

    /// The fixture, parsed once per test process; a failure is reported by every test that needs it.
    private static let cached = Result { try parse() }

    static func load() throws -> GeodesicReference { try cached.get() }

    enum LoadError: Error {
        case missingResource
        case malformed(String)
    }

    private static func parse() throws -> GeodesicReference {
        guard
            let url = Bundle.module.url(forResource: "geodesic-reference", withExtension: "json", subdirectory: "Fixtures")
        else { throw LoadError.missingResource }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        func line(_ row: [Double]) throws -> Line {
            guard row.count == 5 else { throw LoadError.malformed("line \(row)") }
            return Line(latitude1: row[0], longitude1: row[1], latitude2: row[2], longitude2: row[3], distance: row[4])
        }
        return GeodesicReference(
            geographiclibVersion: file.geographiclibVersion,
            lines: try file.inverse.map(line),
            nearlyAntipodalLines: try file.nearAntipodal.map(line),
            destinations: try file.direct.map { row in
                guard row.count == 6 else { throw LoadError.malformed("direct \(row)") }
                return Destination(
                    latitude: row[0], longitude: row[1], bearing: row[2], distance: row[3], endLatitude: row[4],
                    endLongitude: row[5])
            },
            circles: try file.circles.map { circle in
                guard circle.center.count == 2 else { throw LoadError.malformed("circle \(circle.center)") }
                return Circle(
                    latitude: circle.center[0], longitude: circle.center[1], radius: circle.radius,
                    points: try circle.points.map { row in
                        guard row.count == 3 else { throw LoadError.malformed("circle point \(row)") }
                        return CirclePoint(latitude: row[0], longitude: row[1], isInside: row[2] != 0)
                    })
            }
        )
    }

    /// The JSON layout written by the generating script.
    private struct File: Decodable {
        struct Circle: Decodable {
            let center: [Double]
            let radius: Double
            let points: [[Double]]
        }

        let geographiclibVersion: String
        let inverse: [[Double]]
        let nearAntipodal: [[Double]]
        let direct: [[Double]]
        let circles: [Circle]
    }
}
