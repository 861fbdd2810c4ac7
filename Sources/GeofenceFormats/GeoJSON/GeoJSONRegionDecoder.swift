import GeofenceKit

/// Decodes a GeoJSON `FeatureCollection` (RFC 7946) into regions, one per feature, in file order.
///
/// The format is the one in docs/interfaces.md: the identifier is the feature's `id` (string or number) or else
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
        in buffer: UnsafeBufferPointer<UInt8>, warnings: inout [InputError], _ body: (consuming Region) -> Void
    ) throws(InputError) {
        try forEachRegion(in: buffer, prefetch: CircleFeaturePrefetch(buffer), warnings: &warnings, body)
    }

    /// ``forEachRegion(in:warnings:_:)`` with the circle features read ahead by `prefetch` (none when `nil`).
    static func forEachRegion(
        in buffer: UnsafeBufferPointer<UInt8>, prefetch: CircleFeaturePrefetch?, warnings: inout [InputError],
        _ body: (consuming Region) -> Void
    ) throws(InputError) {
        var prefetch = prefetch
        defer { prefetch?.finish() }
        // Sized for a file of circles (each feature at least ~128 bytes), so that the table is not rebuilt over
        // and over as it grows; capped, since a file of large polygons has far fewer features.
        var identifiers = FeatureIdentifiers(expected: min(buffer.count / 128, 1 << 20))
        var deviceLists = DeviceListCache()
        // Circle features are read straight from the bytes (read ahead on every core in a large file, and handed
        // over a run at a time); the rest (and any that warns or fails) as trees. A duplicate id is left to the
        // tree path, which reports it naming the first feature.
        let root = try JSONParser.parse(
            buffer, streaming: "features",
            shortcut: { scanner, index in
                var next = index
                let taken = prefetch?.takeRun(
                    from: &scanner, upcoming: { identifiers.prefetch($0) },
                    admits: { id, hash in identifiers.insert(id, hash: hash, feature: next) == nil }
                ) { region in
                    body(region)
                    next += 1
                }
                if let taken, taken > 0 { return taken }
                guard let region = CircleFeatureShortcut.read(&scanner, deviceLists: &deviceLists),
                    identifiers.insert(region.id, hash: FeatureIdentifiers.hash(region.id), feature: index) == nil
                else { return 0 }
                body(region)
                return 1
            }
        ) {
            (feature, index) throws(InputError) in
            let path = JSONValue.path("features", index: index)
            let (region, idValue, idPath) = try decodeFeature(feature, path: path, warnings: &warnings)
            let hash = FeatureIdentifiers.hash(region.id)
            if let first = identifiers.insert(region.id, hash: hash, feature: index) {
                throw idValue.error("duplicate id \"\(region.id)\" (features[\(first)] has it too)", path: idPath)
            }
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
        // Megabytes of table for a large file: not released on this thread, which has regions to hand on.
        if buffer.count >= BackgroundRelease.minimumBytes {
            BackgroundRelease.release(&identifiers, leaving: FeatureIdentifiers(expected: 0))
        }
    }

    // MARK: Features

    static func decodeFeature(_ feature: JSONValue, path: String, warnings: inout [InputError])
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

        var region = Region(
            id: id, geometry: geometry,
            notifyOnEntry: try optionalBool(properties, "notifyOnEntry", path: propertiesPath) ?? true,
            notifyOnExit: try optionalBool(properties, "notifyOnExit", path: propertiesPath) ?? true,
            devices: try devices(properties, path: propertiesPath, warnings: &warnings),
            notifyOnDwell: try optionalBool(properties, "notifyOnDwell", path: propertiesPath),
            loiteringDelay: try nonNegative(properties, "loiteringDelay", unit: "seconds", path: propertiesPath),
            bufferDistance: try nonNegative(properties, "bufferDistance", unit: "metres", path: propertiesPath),
            confirmationTime: try nonNegative(properties, "confirmationTime", unit: "seconds", path: propertiesPath))
        try applyPlatformProperties(properties, path: propertiesPath, to: &region)
        return (region, idValue, idPath)
    }

    /// The feature's `id`, else `properties.id`, as text.
    static func identifier(of feature: JSONValue, properties: JSONValue?, path: String)
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
    static func canonicalIdentifier(_ number: Double, text: String) -> String {
        let isPlainInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        if isPlainInteger { return text == "-0" ? "0" : text }
        if number.rounded(.towardZero) == number, let integer = Int64(exactly: number) { return String(integer) }
        return text
    }

    // MARK: Helpers

    /// `value` unless it is absent or `null`.
    static func present(_ value: JSONValue?) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        return value
    }

    /// Member `key` of `object`, which must be present and not `null`.
    static func required(_ object: JSONValue, _ key: String, path: String, hint: String?) throws(InputError)
        -> JSONValue
    {
        guard let value = present(object[key]) else {
            throw object.error("missing" + (hint.map { ": " + $0 } ?? ""), path: JSONValue.path(path, key: key))
        }
        return value
    }
}
