import GeofenceKit

/// The common region — a `Point` feature with a `radius` and the usual properties — read straight from the
/// scanner, without building its tree: the regions file of a large fleet is mostly such features.
///
/// It only ever accepts what the tree path (``GeoJSONRegionDecoder/decodeFeature(_:path:warnings:)``) accepts,
/// and builds the same ``Region``. Anything else — another geometry, a property it does not know, a `null`, an
/// escaped key, a duplicate key, a value the tree path would warn about or refuse — makes it return `nil`, and
/// the caller parses the feature again as a tree, which gives the warning or the error at its line and column.
struct CircleFeatureShortcut {
    private var id: String?
    private var sawType = false
    private var sawProperties = false
    private var center: Coordinate?
    private var propertyID: String?
    private var radius: Double?
    private var devices: [String]?
    private var notifyOnEntry: Bool?
    private var notifyOnExit: Bool?
    private var notifyOnDwell: Bool?
    private var loiteringDelay: Double?
    private var bufferDistance: Double?
    private var confirmationTime: Double?

    private init(deviceLists: DeviceListCache) { self.deviceLists = deviceLists }

    /// The last feature's device list (see ``DeviceListCache``).
    private var deviceLists: DeviceListCache

    /// Reads the feature that starts at the scanner (at its `{`), or returns `nil` with the scanner anywhere.
    /// `deviceLists` carries the last device list read from one feature to the next.
    static func read(_ scanner: inout JSONScanner, deviceLists: inout DeviceListCache) -> Region? {
        read(&scanner, deviceLists: &deviceLists) { $0 }
    }

    /// Reads the feature that starts at the scanner (at its `{`) and hands its region to `body`, returning what
    /// `body` returns; or returns `nil` with the scanner anywhere. Handed over rather than returned, the region is
    /// built where `body` keeps it (in ``RegionSlots``, say): returned as an optional, it was built, copied (its
    /// strings and device list retained) and destroyed again for every feature.
    @inline(__always)
    static func read<Result>(
        _ scanner: inout JSONScanner, deviceLists: inout DeviceListCache, _ body: (consuming Region) -> Result
    ) -> Result? {
        var feature = CircleFeatureShortcut(deviceLists: DeviceListCache())
        // Swapped in and out rather than copied, so that the cached array is not retained and released again.
        swap(&feature.deviceLists, &deviceLists)
        let complete: Bool
        do throws(InputError) {
            complete = try feature.readFeature(&scanner)
        } catch {
            complete = false
        }
        swap(&feature.deviceLists, &deviceLists)
        guard complete else { return nil }
        return feature.takeRegion(body)
    }

    /// ``read(_:deviceLists:)`` for a lone feature.
    static func read(_ scanner: inout JSONScanner) -> Region? {
        var deviceLists = DeviceListCache()
        return read(&scanner, deviceLists: &deviceLists)
    }

    /// Hands `body` the region read, its strings and device list taken out of the reader (moved, where a
    /// `consuming` method copied them, retained, and released the reader's); `nil` when it is not a region.
    @inline(__always)
    private mutating func takeRegion<Result>(_ body: (consuming Region) -> Result) -> Result? {
        guard sawType, let center, let radius, radius > 0, radius <= GeoJSONRegionDecoder.maximumRadius,
            let id = id.take() ?? propertyID.take()
        else { return nil }
        return body(
            Region(
                id: id, geometry: .circle(CircleGeometry(center: center, radius: radius)),
                notifyOnEntry: notifyOnEntry ?? true, notifyOnExit: notifyOnExit ?? true, devices: devices.take(),
                notifyOnDwell: notifyOnDwell, loiteringDelay: loiteringDelay, bufferDistance: bufferDistance,
                confirmationTime: confirmationTime))
    }

    /// The members the shortcut knows, matched by their quoted keys (see ``QuotedText``): any other key, or a
    /// known one written with an escape, makes it give up.
    private enum FeatureMember { case type, id, properties, geometry }
    private enum PropertyMember {
        case radius, devices, id, notifyOnEntry, notifyOnExit, notifyOnDwell, loiteringDelay, bufferDistance
        case confirmationTime
    }
    private enum PointMember { case type, coordinates }

    private static let featureKeys: [(QuotedText, FeatureMember)] = [
        (QuotedText("type"), .type), (QuotedText("id"), .id), (QuotedText("properties"), .properties),
        (QuotedText("geometry"), .geometry),
    ]
    /// The common ones first: each key is tried in this order.
    private static let propertyKeys: [(QuotedText, PropertyMember)] = [
        (QuotedText("radius"), .radius), (QuotedText("devices"), .devices), (QuotedText("id"), .id),
        (QuotedText("notifyOnEntry"), .notifyOnEntry), (QuotedText("notifyOnExit"), .notifyOnExit),
        (QuotedText("notifyOnDwell"), .notifyOnDwell), (QuotedText("loiteringDelay"), .loiteringDelay),
        (QuotedText("bufferDistance"), .bufferDistance), (QuotedText("confirmationTime"), .confirmationTime),
    ]
    private static let pointKeys: [(QuotedText, PointMember)] = [
        (QuotedText("type"), .type), (QuotedText("coordinates"), .coordinates),
    ]
    private static let featureType = QuotedText("Feature")
    private static let pointType = QuotedText("Point")

    /// `{"type":"Feature","id":…,"properties":{…},"geometry":{…}}`: in the compact layout if it is in it, else
    /// members in any order.
    private mutating func readFeature(_ scanner: inout JSONScanner) throws(InputError) -> Bool {
        if try readCompactFeature(&scanner) { return true }
        return try readAnyFeature(&scanner)
    }

    /// The feature as a program writes it without whitespace, its members in the usual order:
    /// `{"type":"Feature","id":…,"properties":{"radius":…,"devices":[…]},"geometry":{"type":"Point","coordinates":[…]}}`.
    /// The values are read by the functions ``readAnyFeature(_:)`` reads them with, and the text between them is
    /// compared in one piece, instead of a key search, a whitespace skip before and after each key and value and a
    /// member closure for each (about a fifth of a feature's instructions). `false`, with the reader and the
    /// scanner unchanged, when the text differs anywhere: the feature is then read member by member.
    private mutating func readCompactFeature(_ scanner: inout JSONScanner) throws(InputError) -> Bool {
        var at = scanner
        guard at.consumeVerbatim(#"{"type":"Feature","id":"#), let id = try Self.readIdentifier(&at),
            at.consumeVerbatim(#","properties":{"radius":"#), let radius = try Self.readFiniteNumber(&at),
            at.consumeVerbatim(#","devices":"#), let devices = try Self.readDevices(&at, reusing: &deviceLists),
            at.consumeVerbatim(#"},"geometry":{"type":"Point","coordinates":"#),
            let center = try Self.readPosition(&at), at.consumeVerbatim("}}")
        else { return false }
        (sawType, sawProperties) = (true, true)
        (self.id, self.radius, self.devices, self.center) = (id, radius, devices, center)
        scanner = at
        return true
    }

    /// `{"type":"Feature","id":…,"properties":{…},"geometry":{…}}`, members in any order.
    private mutating func readAnyFeature(_ scanner: inout JSONScanner) throws(InputError) -> Bool {
        try Self.readObject(&scanner, keys: Self.featureKeys) { member, scanner throws(InputError) in
            switch member {
            case .type:
                guard !sawType, scanner.consume(Self.featureType) else { return false }
                sawType = true
            case .id:
                guard id == nil, let value = try Self.readIdentifier(&scanner) else { return false }
                id = value
            case .properties:
                guard !sawProperties, try readProperties(&scanner) else { return false }
                sawProperties = true
            case .geometry:
                guard center == nil, let point = try Self.readPoint(&scanner) else { return false }
                center = point
            }
            return true
        }
    }

    private mutating func readProperties(_ scanner: inout JSONScanner) throws(InputError) -> Bool {
        try Self.readObject(&scanner, keys: Self.propertyKeys) { member, scanner throws(InputError) in
            switch member {
            case .radius:
                guard radius == nil, let value = try Self.readFiniteNumber(&scanner) else { return false }
                radius = value
            case .devices:
                guard devices == nil, let value = try Self.readDevices(&scanner, reusing: &deviceLists) else {
                    return false
                }
                devices = value
            case .id:
                guard propertyID == nil, let value = try Self.readIdentifier(&scanner) else { return false }
                propertyID = value
            case .notifyOnEntry: return try Self.readFlag(&scanner, into: &notifyOnEntry)
            case .notifyOnExit: return try Self.readFlag(&scanner, into: &notifyOnExit)
            case .notifyOnDwell: return try Self.readFlag(&scanner, into: &notifyOnDwell)
            case .loiteringDelay: return try Self.readNonNegative(&scanner, into: &loiteringDelay)
            case .bufferDistance: return try Self.readNonNegative(&scanner, into: &bufferDistance)
            case .confirmationTime: return try Self.readNonNegative(&scanner, into: &confirmationTime)
            }
            return true
        }
    }

    /// `{"type":"Point","coordinates":[longitude, latitude]}` (a third number, the altitude, is allowed).
    private static func readPoint(_ scanner: inout JSONScanner) throws(InputError) -> Coordinate? {
        var sawType = false
        var center: Coordinate?
        let complete = try readObject(&scanner, keys: pointKeys) { member, scanner throws(InputError) in
            switch member {
            case .type:
                guard !sawType, scanner.consume(pointType) else { return false }
                sawType = true
            case .coordinates:
                guard center == nil, let position = try readPosition(&scanner) else { return false }
                center = position
            }
            return true
        }
        return complete && sawType ? center : nil
    }

    private static func readPosition(_ scanner: inout JSONScanner) throws(InputError) -> Coordinate? {
        guard scanner.consume(UInt8(ascii: "[")) else { return nil }
        // Longitude, latitude, and the altitude if any, which is read (it must be a number) and dropped.
        var numbers = (longitude: 0.0, latitude: 0.0)
        var count = 0
        repeat {
            scanner.skipWhitespace()
            guard let number = try readFiniteNumber(&scanner), count < 3 else { return nil }
            if count == 0 { numbers.longitude = number } else if count == 1 { numbers.latitude = number }
            count += 1
            scanner.skipWhitespace()
        } while scanner.consume(UInt8(ascii: ","))
        guard scanner.consume(UInt8(ascii: "]")), count >= 2 else { return nil }
        return try? Coordinate(latitude: numbers.latitude, longitude: numbers.longitude)
    }

    /// A non-empty list of non-empty device names. A list of one name is `cache`'s array when the last list read
    /// was the same one name.
    private static func readDevices(_ scanner: inout JSONScanner, reusing cache: inout DeviceListCache)
        throws(InputError) -> [String]?
    {
        guard scanner.consume(UInt8(ascii: "[")) else { return nil }
        var devices: [String] = []
        repeat {
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "\"") else { return nil }
            let token = try scanner.readStringToken()
            guard !token.span.isEmpty else { return nil }
            scanner.skipWhitespace()
            if devices.isEmpty, !token.hasEscapes, scanner.consume(UInt8(ascii: "]")) {
                return cache.list(naming: token.span, in: scanner)
            }
            devices.append(scanner.string(of: token))
        } while scanner.consume(UInt8(ascii: ","))
        return scanner.consume(UInt8(ascii: "]")) ? devices : nil
    }

    /// A non-empty string, or a finite number written as the tree path writes it.
    private static func readIdentifier(_ scanner: inout JSONScanner) throws(InputError) -> String? {
        switch scanner.peek() ?? 0 {
        case UInt8(ascii: "\""):
            let token = try scanner.readStringToken()
            return token.span.isEmpty ? nil : scanner.string(of: token)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanner.readNumber()
            guard number.value.isFinite else { return nil }
            return GeoJSONRegionDecoder.canonicalIdentifier(number.value, text: scanner.text(of: number.span))
        default:
            return nil
        }
    }

    private static func readFiniteNumber(_ scanner: inout JSONScanner) throws(InputError) -> Double? {
        guard let byte = scanner.peek(), byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else {
            return nil
        }
        // Coordinates and radii take the plain decimal parser's word-at-a-time reading (the same value: both
        // convert through `DecimalConversion`); anything else, the general reader, digit by digit.
        if let (value, end, _) = PlainDecimalParser.parse(scanner.bytes, from: scanner.offset) {
            scanner.offset = end
            return value
        }
        let number = try scanner.readNumber()
        return number.value.isFinite ? number.value : nil
    }

    private static func readFlag(_ scanner: inout JSONScanner, into flag: inout Bool?) throws(InputError) -> Bool {
        guard flag == nil, let byte = scanner.peek(), byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f"),
            let value = try scanner.readLiteral()
        else { return false }
        flag = value
        return true
    }

    private static func readNonNegative(_ scanner: inout JSONScanner, into number: inout Double?) throws(InputError)
        -> Bool
    {
        guard number == nil, let value = try readFiniteNumber(&scanner), value >= 0 else { return false }
        number = value
        return true
    }

    /// Reads an object whose keys are among `keys` and whose members `member` reads (it is called with the
    /// scanner after the key's `:`, and returns `false` to give up); `false` when the value is not an object, a
    /// key is not one of `keys`, or a member gave up.
    ///
    /// The key after the one just read is tried first: files written by a program list every feature's members
    /// in one order, and `keys` are in the usual one, so each key is usually matched at the first try.
    private static func readObject<Member>(
        _ scanner: inout JSONScanner, keys: [(QuotedText, Member)],
        member: (Member, inout JSONScanner) throws(InputError) -> Bool
    ) throws(InputError) -> Bool {
        guard scanner.consume(UInt8(ascii: "{")) else { return false }
        scanner.skipWhitespace()
        if scanner.consume(UInt8(ascii: "}")) { return true }
        var expected = 0
        while true {
            scanner.skipWhitespace()
            var matched: Member?
            if expected < keys.count, scanner.consume(keys[expected].0) {
                matched = keys[expected].1
                expected += 1
            } else {
                for (index, (key, named)) in keys.enumerated() where scanner.consume(key) {
                    matched = named
                    expected = index + 1
                    break
                }
            }
            guard let matched else { return false }
            scanner.skipWhitespace()
            guard scanner.consume(UInt8(ascii: ":")) else { return false }
            scanner.skipWhitespace()
            guard try member(matched, &scanner) else { return false }
            scanner.skipWhitespace()
            if scanner.consume(UInt8(ascii: "}")) { return true }
            guard scanner.consume(UInt8(ascii: ",")) else { return false }
        }
    }
}
