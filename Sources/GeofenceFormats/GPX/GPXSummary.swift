import GeofenceKit

/// What a GPX document holds, tallied from its events: counts, bounds, first and last track points, time span.
///
/// Counts are what the file holds, including points the reader refused (``GPXEvent/invalidPoint(_:_:)``): a user
/// checking a file wants to see every point it has, and the refused ones are listed as errors besides.
/// Everything else (``timedTrackPoints``, ``bounds``, the first and last track points, the time span) is about
/// the points that would play.

public struct GPXSummary: Sendable, Equatable {
    /// The latitude and longitude ranges of a set of points.
    public struct Bounds: Sendable, Equatable {
        public var minLatitude: Double
        public var minLongitude: Double
        public var maxLatitude: Double
        public var maxLongitude: Double
    }

    /// The root's `version` attribute; `nil` when absent.
    public var version: String?
    public var tracks = 0
    public var segments = 0
    public var trackPoints = 0
    /// Valid track points that have a `<time>`.
    public var timedTrackPoints = 0
    public var waypoints = 0
    public var routes = 0
    public var routePoints = 0
    /// Points refused by the reader, of any kind (they are included in the counts above).
    public var invalidPoints = 0
    /// The bounds of every valid point (waypoints, route and track points); `nil` when there is none.
    public var bounds: Bounds?
    public var firstTrackPoint: GPXPoint?
    public var lastTrackPoint: GPXPoint?
    /// The earliest and latest time of any valid point; `nil` when no point has a time.
    public var earliestTime: Timestamp?
    public var latestTime: Timestamp?
    /// The earliest and latest time of the waypoints and route points: paths that playback samples at its
    /// interval between their times (track points play at their own times instead).
    public var sampledEarliestTime: Timestamp?
    public var sampledLatestTime: Timestamp?

    public init() {}

    /// Tallies `events`.
    public mutating func add(_ events: [GPXEvent]) {
        for event in events { add(event) }
    }

    /// Tallies one event.
    public mutating func add(_ event: GPXEvent) {
        switch event {
        case .document(let version): self.version = version
        case .trackStart: tracks += 1
        case .segmentStart: segments += 1
        case .routeStart: routes += 1
        case .trackEnd, .segmentEnd, .routeEnd, .warning: break
        case .waypoint(let point):
            waypoints += 1
            include(point)
            includeSampled(point)
        case .routePoint(let point):
            routePoints += 1
            include(point)
            includeSampled(point)
        case .trackPoint(let point):
            trackPoints += 1
            if point.time != nil { timedTrackPoints += 1 }
            if firstTrackPoint == nil { firstTrackPoint = point }
            lastTrackPoint = point
            include(point)
        case .invalidPoint(let kind, _):
            invalidPoints += 1
            switch kind {
            case .waypoint: waypoints += 1
            case .routePoint: routePoints += 1
            case .trackPoint: trackPoints += 1
            }
        }
    }

    private mutating func includeSampled(_ point: GPXPoint) {
        guard let time = point.time else { return }
        sampledEarliestTime = min(sampledEarliestTime ?? time, time)
        sampledLatestTime = max(sampledLatestTime ?? time, time)
    }

    private mutating func include(_ point: GPXPoint) {
        if var bounds {
            bounds.minLatitude = min(bounds.minLatitude, point.latitude)
            bounds.minLongitude = min(bounds.minLongitude, point.longitude)
            bounds.maxLatitude = max(bounds.maxLatitude, point.latitude)
            bounds.maxLongitude = max(bounds.maxLongitude, point.longitude)
            self.bounds = bounds
        } else {
            bounds = Bounds(
                minLatitude: point.latitude, minLongitude: point.longitude, maxLatitude: point.latitude,
                maxLongitude: point.longitude)
        }
        if let time = point.time {
            earliestTime = min(earliestTime ?? time, time)
            latestTime = max(latestTime ?? time, time)
        }
    }
}
