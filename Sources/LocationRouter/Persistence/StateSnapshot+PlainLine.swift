import GeofenceFormats
import GeofenceKit

/// A device line exactly as this version writes it, read straight from its bytes (``JSONCursor``): restoring a
/// million devices reads a million such lines, and the JSON tree of each cost most of reading them. A line laid
/// out any other way — keys in another order, whitespace, a saved `coverage`, an error — is read the general way,
/// which gives the same device or says what is wrong.
extension StateSnapshot {
    /// The device of a line written as ``encoded()`` writes one without `coverage`, with a valid position; `nil`
    /// for any other line.
    static func plainDevice(_ line: UnsafeBufferPointer<UInt8>) -> Device? {
        var cursor = JSONCursor(line)
        guard cursor.consume(#"{"device":"#), let name = cursor.string(),
            cursor.consume(#","time":"#), let time = cursor.integer(), cursor.consume(","),
            let position = cursor.position(), cursor.consume(#","regions":["#),
            let regions = cursor.elements({ $0.region() }), cursor.consume(#","failed":["#),
            let failed = cursor.elements({ $0.string() })
        else { return nil }
        var deliveredUntil: Int64?
        if cursor.consume(#","deliveredUntil":"#) {
            guard let time = cursor.integer() else { return nil }
            deliveredUntil = Int64(time)
        }
        var chosen: DeviceState.Choice?
        if cursor.consume(#","chosen":{"#) {
            guard let anchor = cursor.position(), cursor.consume(#","time":"#), let time = cursor.integer(),
                cursor.consume("}")
            else { return nil }
            chosen = DeviceState.Choice(latitude: anchor.latitude, longitude: anchor.longitude, time: Int64(time))
        }
        var seq = 0
        if cursor.consume(#","seq":"#) {
            guard let value = cursor.integer() else { return nil }
            seq = value
        }
        guard cursor.consume("}"), cursor.isAtEnd else { return nil }
        return Device(
            name: name, time: Int64(time), latitude: position.latitude, longitude: position.longitude,
            regions: regions, failed: failed, seq: UInt64(max(0, seq)), deliveredUntil: deliveredUntil,
            chosen: chosen)
    }
}

extension JSONCursor {
    /// The elements of an array, each read by `element`, and its closing bracket (the opening one read by the
    /// caller).
    fileprivate mutating func elements<Element>(_ element: (inout JSONCursor) -> Element?) -> [Element]? {
        var elements: [Element] = []
        if consume("]") { return elements }
        repeat {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        } while consume(",")
        return consume("]") ? elements : nil
    }

    /// `"lat":…,"lon":…` of a valid position.
    fileprivate mutating func position() -> (latitude: Double, longitude: Double)? {
        guard consume(#""lat":"#), let latitude = number(), consume(#","lon":"#),
            let longitude = number(), (try? Coordinate(latitude: latitude, longitude: longitude)) != nil
        else { return nil }
        return (latitude, longitude)
    }

    /// `{"id":…,"inside":…}`, with `pendingSince`, `dwellDue` and `appInside` where the region has them.
    fileprivate mutating func region() -> StateSnapshot.Device.Region? {
        guard consume(#"{"id":"#), let id = string(), consume(#","inside":"#), let inside = bool() else { return nil }
        var region = StateSnapshot.Device.Region(id: id, inside: inside)
        // Most regions have none of the keys that may follow.
        if consume("}") { return region }
        if consume(#","pendingSince":"#) {
            guard let time = integer() else { return nil }
            region.pendingSince = Int64(time)
        }
        if consume(#","dwellDue":"#) {
            guard let time = integer() else { return nil }
            region.dwellDue = Int64(time)
        }
        if consume(#","appInside":"#) {
            guard let appInside = bool() else { return nil }
            region.appInside = appInside
        }
        return consume("}") ? region : nil
    }
}
