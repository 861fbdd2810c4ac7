import GeofenceKit

// GeoJSON geometries: circles as points with a radius, polygons and multipolygons with their rings checked.

extension GeoJSONRegionDecoder {
    static func decodeGeometry(
        _ geometry: JSONValue, path: String, properties: JSONValue?, featurePath: String,
        warnings: inout [InputError]
    ) throws(InputError) -> RegionGeometry {
        _ = try geometry.members(path: path)
        let typePath = JSONValue.path(path, key: "type")
        let typeValue = try required(geometry, "type", path: path, hint: nil)
        let type = try typeValue.string(path: typePath)
        let coordinatesPath = JSONValue.path(path, key: "coordinates")
        let radiusPath = JSONValue.path(featurePath, key: "properties.radius")
        let radiusValue = present(properties?["radius"])
        switch type {
        case "Point":
            let coordinates = try required(geometry, "coordinates", path: path, hint: nil)
            let center = try position(coordinates, path: coordinatesPath)
            guard let radiusValue else {
                throw (properties ?? geometry).error("missing: a Point region needs a radius in metres", path: radiusPath)
            }
            let radius = try radiusValue.number(path: radiusPath)
            guard radius > 0 else { throw radiusValue.error("must be > 0", path: radiusPath) }
            guard radius <= maximumRadius else {
                throw radiusValue.error("must be ≤ \(Int(maximumRadius)) m", path: radiusPath)
            }
            return .circle(CircleGeometry(center: center, radius: radius))
        case "Polygon", "MultiPolygon":
            if let radiusValue {
                warnings.append(radiusValue.error("ignored: only Point regions have a radius", path: radiusPath))
            }
            let coordinates = try required(geometry, "coordinates", path: path, hint: nil)
            var polygons: [[[Coordinate]]] = [], boundary: [[Coordinate]] = []
            if type == "Polygon" {
                (polygons, boundary) = try planarPolygons(coordinates, path: coordinatesPath, warnings: &warnings)
            } else {
                let elements = try coordinates.array(path: coordinatesPath)
                guard !elements.isEmpty else {
                    throw coordinates.error("a MultiPolygon needs at least one polygon", path: coordinatesPath)
                }
                for (index, element) in elements.enumerated() {
                    let part = try planarPolygons(
                        element, path: JSONValue.path(coordinatesPath, index: index), warnings: &warnings)
                    polygons += part.polygons
                    boundary += part.boundary
                }
            }
            return .polygon(PolygonGeometry(polygons: polygons, boundary: boundary))
        default:
            throw typeValue.error(
                "unsupported geometry type \"\(type)\" (a region is a Point with a radius, a Polygon or a "
                    + "MultiPolygon)", path: typePath)
        }
    }

    /// The rings of one polygon: the outer ring first, then holes, each closed (first == last).
    static func polygon(_ value: JSONValue, path: String, warnings: inout [InputError])
        throws(InputError) -> [[Coordinate]]
    {
        let elements = try value.array(path: path)
        guard !elements.isEmpty else { throw value.error("a polygon needs at least one ring", path: path) }
        var rings: [[Coordinate]] = []
        rings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            rings.append(try ring(element, path: JSONValue.path(path, index: index), warnings: &warnings))
        }
        return rings
    }

    static func ring(_ value: JSONValue, path: String, warnings: inout [InputError])
        throws(InputError) -> [Coordinate]
    {
        let elements = try value.array(path: path)
        var ring: [Coordinate] = []
        ring.reserveCapacity(elements.count + 1)
        for (index, element) in elements.enumerated() {
            ring.append(try position(element, path: JSONValue.path(path, index: index)))
        }
        if let first = ring.first, let last = ring.last, first != last {
            ring.append(first)
            warnings.append(
                value.error(
                    "ring is not closed (RFC 7946 wants its last position equal to the first); closed it", path: path))
        }
        let distinct = distinctPositionCount(ring, upTo: 3)
        guard distinct >= 3 else {
            throw value.error("a ring needs at least 3 distinct positions, found \(distinct)", path: path)
        }
        // A ring along one parallel that winds around a pole is on one line of the longitude–latitude plane, yet
        // it encloses the cap over the pole.
        if isCollinear(ring) && !windsAroundAPole(ring) {
            warnings.append(
                value.error(
                    "the ring has no area (its positions lie on one line): only points on the line are inside",
                    path: path))
        }
        return ring
    }

    /// Whether a ring's edges, each taken the shorter way round in longitude, add up to a turn or more around the
    /// Earth: it winds around a pole (see `PolygonUnwrapping`, which says which).
    static func windsAroundAPole(_ ring: [Coordinate]) -> Bool {
        var turned = 0.0
        for (a, b) in zip(ring, ring.dropFirst()) {
            var step = b.longitude - a.longitude
            if step > 180 { step -= 360 } else if step < -180 { step += 360 }
            turned += step
        }
        return abs(turned) > 180
    }

    /// Whether all positions of a ring lie on one line (up to rounding), so that it encloses no area.
    static func isCollinear(_ ring: [Coordinate]) -> Bool {
        guard let origin = ring.first else { return true }
        func offset(_ position: Coordinate) -> (x: Double, y: Double) {
            (position.longitude - origin.longitude, position.latitude - origin.latitude)
        }
        // The line through the first position and the one farthest from it.
        var direction = (x: 0.0, y: 0.0)
        var length2 = 0.0
        for position in ring {
            let d = offset(position)
            if d.x * d.x + d.y * d.y > length2 { (direction, length2) = (d, d.x * d.x + d.y * d.y) }
        }
        // Off the line by more than 1e-12 of its length: the cross product exceeds 1e-12 × length².
        return ring.allSatisfy { position in
            let d = offset(position)
            let cross = d.x * direction.y - d.y * direction.x
            return cross * cross <= 1e-24 * length2 * length2
        }
    }

    /// How many distinct positions the ring has, counting no further than `limit` (a linear pass).
    static func distinctPositionCount(_ ring: [Coordinate], upTo limit: Int) -> Int {
        var seen: [Coordinate] = []
        for coordinate in ring where !seen.contains(coordinate) {
            seen.append(coordinate)
            if seen.count == limit { break }
        }
        return seen.count
    }

    /// A `[longitude, latitude]` position (a third element, the altitude, and any further ones are ignored).
    ///
    /// The path is built only for an error: large polygons have hundreds of thousands of positions.
    static func position(_ value: JSONValue, path: @autoclosure () -> String) throws(InputError) -> Coordinate {
        if case .array(let elements) = value.kind, elements.count >= 2,
            case .number(let longitude, _) = elements[0].kind, case .number(let latitude, _) = elements[1].kind,
            let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
        {
            return coordinate
        }
        let path = path()
        let elements = try value.array(path: path)
        guard elements.count >= 2 else {
            throw value.error(
                "a position needs [longitude, latitude], found \(elements.count) number\(elements.count == 1 ? "" : "s")",
                path: path)
        }
        let longitude = try elements[0].number(path: JSONValue.path(path, index: 0))
        let latitude = try elements[1].number(path: JSONValue.path(path, index: 1))
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            let isLatitude = error.field == "lat"
            var message = error.description
            if isLatitude, abs(longitude) <= 90 { message += "; GeoJSON positions are [longitude, latitude]" }
            throw elements[isLatitude ? 1 : 0].error(message, path: JSONValue.path(path, index: isLatitude ? 1 : 0))
        }
    }
}
