/// Decodes a GeoJSON `FeatureCollection` (RFC 7946) into regions, one per feature, in file order.
///
/// The format is the one in INTERFACES.md: the identifier is the feature's `id` (string or number) or else
/// `properties.id`, required and unique; a `Point` with `properties.radius` (metres) is a circle; a `Polygon`
/// (outer ring, then holes) or `MultiPolygon` is a polygon; `properties.devices`, `notifyOnEntry`,
/// `notifyOnExit`, `notifyOnDwell`, `loiteringDelay`, `bufferDistance` and `confirmationTime` (this region's
/// hysteresis) are optional. Other properties are ignored, as GeoJSON
/// files exported from GIS tools carry many.
///
/// Every error names the feature and field as a key path (`features[3].properties.radius: must be > 0`) at the
/// offending value's line and column; attach the file name with ``InputError/in(file:)``. Decoding stops at the
/// first error, since a regions file is fixed by hand and re-checked.
///
/// Leniency, each reported as a warning: a ring whose last position differs from its first is closed by
/// repeating the first (hand-written files often omit it, and the intent is unambiguous); `radius` on a polygon
/// is ignored; a ring whose positions all lie on one line (no area) is kept. Explicit `null` in an optional
/// property means "absent". Numeric ids are printed as written, except that integral values lose their fraction
/// and exponent (`7.0` and `7e0` become `"7"`).
public enum GeoJSONRegionDecoder {
    /// The largest accepted circle radius in metres: beyond it a "circle" is a hemisphere and almost
    /// certainly a unit mistake (kilometres or feet).
    public static let maximumRadius = 1_000_000.0

    /// Decodes the regions of a GeoJSON file, discarding warnings.
    public static func decode(_ bytes: [UInt8]) throws(InputError) -> [Region] {
        var warnings: [InputError] = []
        return try decode(bytes, warnings: &warnings)
    }

    /// Decodes the regions of a GeoJSON file and appends what was accepted leniently to `warnings`.
    /// - Throws: ``InputError`` for the first problem, with line, column and key path.
    public static func decode(_ bytes: [UInt8], warnings: inout [InputError]) throws(InputError) -> [Region] {
        let result = bytes.withUnsafeBufferPointer { buffer in
            var kept = warnings
            let decoded = Result { () throws(InputError) in try decode(buffer, warnings: &kept) }
            return (decoded, kept)
        }
        warnings = result.1
        return try result.0.get()
    }

    /// Decodes the regions of a GeoJSON file held in `buffer` (a memory-mapped file, say).
    public static func decode(_ buffer: UnsafeBufferPointer<UInt8>, warnings: inout [InputError]) throws(InputError)
        -> [Region]
    {
        var regions: [Region] = []
        try forEachRegion(in: buffer, warnings: &warnings) { regions.append($0) }
        return regions
    }

    /// Decodes the regions of a GeoJSON file one feature at a time, handing each to `body` in file order: memory
    /// holds the file's bytes and one feature's tree, never the tree of the whole file (about ten times its size).
    public static func forEachRegion(
        in buffer: UnsafeBufferPointer<UInt8>, warnings: inout [InputError], _ body: (Region) -> Void
    ) throws(InputError) {
        var firstFeatureWithID: [ExactName: Int] = [:]
        let root = try JSONParser.parse(buffer, streaming: "features") { (feature, index) throws(InputError) in
            let path = JSONValue.path("features", index: index)
            let (region, idValue, idPath) = try decodeFeature(feature, path: path, warnings: &warnings)
            if let first = firstFeatureWithID[ExactName(region.id)] {
                throw idValue.error("duplicate id \"\(region.id)\" (features[\(first)] has it too)", path: idPath)
            }
            firstFeatureWithID[ExactName(region.id)] = index
            body(region)
        }
        _ = try root.members(path: "")
        let type = try required(root, "type", path: "", hint: "a regions file is a GeoJSON FeatureCollection")
        let typeName = try type.string(path: "type")
        guard typeName == "FeatureCollection" else {
            throw type.error(
                "expected \"FeatureCollection\", found \"\(typeName)\" (a regions file is a FeatureCollection "
                    + "of features, one per region)", path: "type")
        }
        _ = try required(root, "features", path: "", hint: nil).array(path: "features")
    }

    // MARK: Features

    private static func decodeFeature(_ feature: JSONValue, path: String, warnings: inout [InputError])
        throws(InputError) -> (Region, idValue: JSONValue, idPath: String)
    {
        _ = try feature.members(path: path)
        let typePath = JSONValue.path(path, key: "type")
        let typeValue = try required(feature, "type", path: path, hint: nil)
        let type = try typeValue.string(path: typePath)
        guard type == "Feature" else { throw typeValue.error("expected \"Feature\", found \"\(type)\"", path: typePath) }

        let propertiesPath = JSONValue.path(path, key: "properties")
        let properties = present(feature["properties"])
        if let properties { _ = try properties.members(path: propertiesPath) }

        let (id, idValue, idPath) = try identifier(of: feature, properties: properties, path: path)

        let geometryPath = JSONValue.path(path, key: "geometry")
        let geometryValue = try required(
            feature, "geometry", path: path, hint: "a region needs a Point, Polygon or MultiPolygon")
        let geometry = try decodeGeometry(
            geometryValue, path: geometryPath, properties: properties, featurePath: path, warnings: &warnings)

        let region = Region(
            id: id, geometry: geometry,
            notifyOnEntry: try optionalBool(properties, "notifyOnEntry", path: propertiesPath) ?? true,
            notifyOnExit: try optionalBool(properties, "notifyOnExit", path: propertiesPath) ?? true,
            devices: try devices(properties, path: propertiesPath, warnings: &warnings),
            notifyOnDwell: try optionalBool(properties, "notifyOnDwell", path: propertiesPath),
            loiteringDelay: try nonNegative(properties, "loiteringDelay", unit: "seconds", path: propertiesPath),
            bufferDistance: try nonNegative(properties, "bufferDistance", unit: "metres", path: propertiesPath),
            confirmationTime: try nonNegative(properties, "confirmationTime", unit: "seconds", path: propertiesPath))
        return (region, idValue, idPath)
    }

    /// The feature's `id`, else `properties.id`, as text.
    private static func identifier(of feature: JSONValue, properties: JSONValue?, path: String)
        throws(InputError) -> (String, JSONValue, String)
    {
        let (value, idPath): (JSONValue, String)
        if let featureID = present(feature["id"]) {
            (value, idPath) = (featureID, JSONValue.path(path, key: "id"))
        } else if let propertyID = present(properties?["id"]) {
            (value, idPath) = (propertyID, JSONValue.path(path, key: "properties.id"))
        } else {
            throw feature.error(
                "missing: every region needs an \"id\" (on the feature, or in its properties)",
                path: JSONValue.path(path, key: "id"))
        }
        switch value.kind {
        case .string(let text):
            guard !text.isEmpty else { throw value.error("must not be empty", path: idPath) }
            return (text, value, idPath)
        case .number(let number, let text):
            guard number.isFinite else { throw value.error("\(text) is too large for an id", path: idPath) }
            return (canonicalIdentifier(number, text: text), value, idPath)
        default:
            throw value.error("expected a string or a number, found \(value.typeDescription)", path: idPath)
        }
    }

    /// Integers as plain digits (`7.0` → `7`, `-0` → `0`); other numbers as written.
    private static func canonicalIdentifier(_ number: Double, text: String) -> String {
        let isPlainInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        if isPlainInteger { return text == "-0" ? "0" : text }
        if number.rounded(.towardZero) == number, let integer = Int64(exactly: number) { return String(integer) }
        return text
    }

    // MARK: Geometry

    private static func decodeGeometry(
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

    private static func ring(_ value: JSONValue, path: String, warnings: inout [InputError])
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
        if isCollinear(ring) {
            warnings.append(
                value.error(
                    "the ring has no area (its positions lie on one line): only points on the line are inside",
                    path: path))
        }
        return ring
    }

    /// Whether all positions of a ring lie on one line (up to rounding), so that it encloses no area.
    private static func isCollinear(_ ring: [Coordinate]) -> Bool {
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
    private static func distinctPositionCount(_ ring: [Coordinate], upTo limit: Int) -> Int {
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
    private static func position(_ value: JSONValue, path: @autoclosure () -> String) throws(InputError) -> Coordinate {
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

    // MARK: Properties

    private static func optionalBool(_ properties: JSONValue?, _ key: String, path: String) throws(InputError)
        -> Bool?
    {
        try present(properties?[key])?.bool(path: JSONValue.path(path, key: key))
    }

    private static func devices(_ properties: JSONValue?, path: String, warnings: inout [InputError])
        throws(InputError) -> [String]?
    {
        guard let value = present(properties?["devices"]) else { return nil }
        let devicesPath = JSONValue.path(path, key: "devices")
        let elements = try value.array(path: devicesPath)
        if elements.isEmpty {
            warnings.append(value.error("empty: no device monitors this region", path: devicesPath))
        }
        var devices: [String] = []
        devices.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let elementPath = JSONValue.path(devicesPath, index: index)
            let device = try element.string(path: elementPath)
            guard !device.isEmpty else { throw element.error("must not be empty", path: elementPath) }
            devices.append(device)
        }
        return devices
    }

    /// An optional property that must be a finite number ≥ 0 (a delay, a distance).
    private static func nonNegative(
        _ properties: JSONValue?, _ key: String, unit: String, path: String
    ) throws(InputError) -> Double? {
        guard let value = present(properties?[key]) else { return nil }
        let keyPath = JSONValue.path(path, key: key)
        let number = try value.number(path: keyPath)
        guard number.isFinite, number >= 0 else { throw value.error("must be ≥ 0 \(unit)", path: keyPath) }
        return number
    }

    // MARK: Helpers

    /// `value` unless it is absent or `null`.
    private static func present(_ value: JSONValue?) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        return value
    }

    /// Member `key` of `object`, which must be present and not `null`.
    private static func required(_ object: JSONValue, _ key: String, path: String, hint: String?) throws(InputError)
        -> JSONValue
    {
        guard let value = present(object[key]) else {
            throw object.error("missing" + (hint.map { ": " + $0 } ?? ""), path: JSONValue.path(path, key: key))
        }
        return value
    }
}
