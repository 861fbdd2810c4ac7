import GeofenceKit

/// Collects the events of a ``GPXReader`` into the ``Trace`` a device plays.
///
/// What plays: the file's tracks when it has track points (each segment at its recorded times, segments
/// separated by gaps); otherwise its routes (each route a path, visited in order); otherwise its waypoints, as
/// one path in file order — as Xcode plays a GPX file of waypoints. A point whose time goes backwards is
/// reported and skipped, never played; points the reader refused (invalid coordinates) are reported too.

public struct GPXTraceBuilder: Sendable {
    private var tracks: [Trace.Segment] = []
    private var routes: [Trace.Segment] = []
    private var waypoints = Trace.Segment(playsRecordedTimes: false)
    private var current: Trace.Segment?
    private var currentKind = "trkpt"
    /// The latest time kept in the current segment and among the waypoints.
    private var currentLastTime: Int64?
    private var waypointsLastTime: Int64?
    /// What was skipped, with lines: points with invalid coordinates, times that go backwards.
    public private(set) var warnings: [InputError] = []

    public init() {}

    public mutating func consume(_ events: [GPXEvent]) {
        for event in events { consume(event) }
    }

    public mutating func consume(_ event: GPXEvent) {
        switch event {
        case .segmentStart:
            current = Trace.Segment(playsRecordedTimes: true)
            currentKind = "trkpt"
            currentLastTime = nil
        case .routeStart:
            current = Trace.Segment(playsRecordedTimes: false)
            currentKind = "rtept"
            currentLastTime = nil
        case .trackPoint(let point), .routePoint(let point):
            if current == nil {
                // A point outside a segment or route element: treat it as a segment of its own kind.
                if case .trackPoint = event { current = Trace.Segment(playsRecordedTimes: true) }
                else { current = Trace.Segment(playsRecordedTimes: false) }
            }
            if var segment = current.take() {
                Self.append(point, to: &segment, latest: &currentLastTime, element: currentKind, warnings: &warnings)
                current = segment
            }
        case .segmentEnd:
            if let segment = current.take() { tracks.append(segment) }
        case .routeEnd:
            if let segment = current.take() { routes.append(segment) }
        case .waypoint(let point):
            Self.append(point, to: &waypoints, latest: &waypointsLastTime, element: "wpt", warnings: &warnings)
        case .invalidPoint(_, let error), .warning(let error):
            warnings.append(error)
        default:
            break
        }
    }

    private static func append(
        _ point: GPXPoint, to segment: inout Trace.Segment, latest: inout Int64?, element: String,
        warnings: inout [InputError]
    ) {
        let time = point.time?.microseconds
        if let time, let previous = latest, time < previous {
            warnings.append(
                InputError(
                    "time \(Timestamp(microseconds: time).iso8601) goes backwards (after \(Timestamp(microseconds: previous).iso8601)); the point is skipped",
                    line: point.line, field: "\(element).time"))
            return
        }
        segment.append(latitude: point.latitude, longitude: point.longitude, time: time)
        if let time { latest = time }
    }

    /// The trace to play; empty when the file has no playable point.
    public func trace(name: String) -> Trace {
        var segments = tracks
        if let open = current, open.playsRecordedTimes { segments.append(open) }
        if segments.allSatisfy({ $0.count == 0 }) { segments = routes }
        if segments.allSatisfy({ $0.count == 0 }) { segments = [waypoints] }
        return Trace(name: name, segments: segments)
    }
}
