import GeofenceKit

/// A position read from a GPX file: a waypoint (`<wpt>`), route point (`<rtept>`) or track point (`<trkpt>`).
///
/// Points reach consumers only when their coordinates are valid: finite, latitude in -90…90 and longitude in
/// -180…180 (see ``GPXEvent/invalidPoint(_:_:)`` for the others).

public struct GPXPoint: Sendable, Equatable {
    /// Which element a point comes from; the raw value is the element's name, as used in messages.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case waypoint = "wpt"
        case routePoint = "rtept"
        case trackPoint = "trkpt"
    }

    public var latitude: Double
    public var longitude: Double
    /// The point's `<time>`; `nil` when it has none.
    public var time: Timestamp?
    /// The point's `<ele>` in metres; `nil` when it has none or it is not a number.
    public var elevation: Double?
    /// The line of the point's start tag, for messages.
    public var line: Int

    public init(latitude: Double, longitude: Double, time: Timestamp? = nil, elevation: Double? = nil, line: Int) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.elevation = elevation
        self.line = line
    }
}
