import GeofenceKit

/// What ``GPXReader`` reports, in document order.
///
/// Structure events come in matching pairs (`routeStart`…`routeEnd`, `trackStart`…`trackEnd`,
/// `segmentStart`…`segmentEnd`), and points come inside them: route points inside a route, track points inside a
/// segment, waypoints outside both. Empty routes, tracks and segments are reported as they are.

public enum GPXEvent: Sendable, Equatable {
    /// The root `<gpx>` element was read, with its `version` attribute (`"1.0"`, `"1.1"`; `nil` when absent).
    /// Always the first event.
    case document(version: String?)
    case waypoint(GPXPoint)
    case routeStart
    case routePoint(GPXPoint)
    case routeEnd
    case trackStart
    case segmentStart
    case trackPoint(GPXPoint)
    case segmentEnd
    case trackEnd
    /// A point the reader refuses, never to be played: a coordinate missing, not a number, not finite or out of
    /// range, or a `<time>` that is not a time. The error names the element and attribute
    /// (`field: "trkpt.lat"`), line and column. Reading goes on after it.
    case invalidPoint(GPXPoint.Kind, InputError)
    /// Something ignored that the user may want to know about, such as an `<ele>` that is not a number (the point
    /// is kept without an elevation).
    case warning(InputError)
}
