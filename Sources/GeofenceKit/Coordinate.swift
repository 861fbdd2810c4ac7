/// A validated WGS84 position in degrees.
///
/// Every `Coordinate` is finite with latitude in [-90, 90] and longitude in [-180, 180]: the throwing
/// initializer is the only way to build one from untrusted numbers.
public struct Coordinate: Sendable, Hashable, CustomStringConvertible {
    public let latitude: Double
    public let longitude: Double

    /// Validates and stores a position.
    /// - Throws: ``CoordinateError`` naming the first field that is not finite or out of range.
    public init(latitude: Double, longitude: Double) throws(CoordinateError) {
        guard latitude.isFinite else { throw .notFinite(field: "lat") }
        guard longitude.isFinite else { throw .notFinite(field: "lon") }
        guard (-90.0...90.0).contains(latitude) else { throw .outOfRange(field: "lat", value: latitude) }
        guard (-180.0...180.0).contains(longitude) else { throw .outOfRange(field: "lon", value: longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Builds a coordinate the caller has already validated (generated positions, internal tables).
    @inlinable
    public init(unchecked latitude: Double, _ longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// Why a pair of numbers is not a valid ``Coordinate``.
public enum CoordinateError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFinite(field: String)
    case outOfRange(field: String, value: Double)

    public var field: String {
        switch self {
        case .notFinite(let field), .outOfRange(let field, _): field
        }
    }

    public var description: String {
        switch self {
        case .notFinite(let field):
            "\(field) must be a finite number"
        case .outOfRange(let field, let value):
            "\(field) \(value) is out of range (\(field == "lat" ? "-90...90" : "-180...180"))"
        }
    }
}
