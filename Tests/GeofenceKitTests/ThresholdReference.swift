import Foundation

@testable import GeofenceKit

/// Reference values from geographiclib for the rules that compare a distance with a threshold, made by
/// `Fixtures/make-threshold-reference.py` and committed as `Fixtures/threshold-reference.json`.
struct ThresholdReference: Sendable {
    /// Two positions (degrees) and the geodesic distance between them (metres).
    struct Pair: Sendable, CustomStringConvertible {
        let latitude1, longitude1, latitude2, longitude2, distance: Double
        var description: String { "(\(latitude1), \(longitude1)) → (\(latitude2), \(longitude2)), \(distance) m" }
    }

    /// A point and its geodesic distance to the nearest edge of a ring.
    struct PolygonPoint: Sendable {
        let latitude, longitude, boundaryDistance: Double
    }

    struct Polygon: Sendable, CustomStringConvertible {
        /// (longitude, latitude) positions, closed.
        let ring: [[Double]]
        let points: [PolygonPoint]
        var description: String { "ring from \(ring[0])" }
    }

    let pairs: [Pair]
    let polygons: [Polygon]
    let legs: [Pair]

    private static let cached = Result { try parse() }

    static func load() throws -> ThresholdReference { try cached.get() }

    enum LoadError: Error {
        case missingResource
        case malformed(String)
    }

    private static func parse() throws -> ThresholdReference {
        guard
            let url = Bundle.module.url(forResource: "threshold-reference", withExtension: "json", subdirectory: "Fixtures")
        else { throw LoadError.missingResource }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        func pair(_ row: [Double]) throws -> Pair {
            guard row.count == 5 else { throw LoadError.malformed("pair \(row)") }
            return Pair(latitude1: row[0], longitude1: row[1], latitude2: row[2], longitude2: row[3], distance: row[4])
        }
        return ThresholdReference(
            pairs: try file.pairs.map(pair),
            polygons: try file.polygons.map { polygon in
                Polygon(
                    ring: polygon.ring,
                    points: try polygon.points.map { row in
                        guard row.count == 3 else { throw LoadError.malformed("polygon point \(row)") }
                        return PolygonPoint(latitude: row[0], longitude: row[1], boundaryDistance: row[2])
                    })
            },
            legs: try file.legs.map(pair))
    }

    private struct File: Decodable {
        struct Polygon: Decodable {
            let ring: [[Double]]
            let points: [[Double]]
        }

        let pairs: [[Double]]
        let polygons: [Polygon]
        let legs: [[Double]]
    }
}
