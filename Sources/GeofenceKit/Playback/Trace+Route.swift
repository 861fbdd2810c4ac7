extension Trace {
    /// A route given as text, `LAT,LON;LAT,LON;…` (as `xcrun simctl location start` takes waypoints): one path,
    /// visited in order at the playback speed.
    /// - Throws: ``InputError`` naming the waypoint (1-based) and what is wrong with it.
    public static func route(_ text: String) throws(InputError) -> Trace {
        var segment = Segment(playsRecordedTimes: false)
        let waypoints = text.split(separator: ";", omittingEmptySubsequences: false)
        for (index, waypoint) in waypoints.enumerated() {
            let field = "route waypoint \(index + 1)"
            let parts = waypoint.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2,
                let latitude = Double(parts[0].trimmingSpaces), let longitude = Double(parts[1].trimmingSpaces)
            else {
                throw InputError("expected LAT,LON, found \"\(waypoint)\"", field: field)
            }
            do {
                let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
                segment.append(latitude: coordinate.latitude, longitude: coordinate.longitude, time: nil)
            } catch {
                throw InputError(error.description, field: field)
            }
        }
        guard segment.count >= 2 else {
            throw InputError("a route needs at least two waypoints (LAT,LON;LAT,LON)", field: "route")
        }
        return Trace(name: "route", segments: [segment])
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
