/// A path to play back: segments of points, each point with an optional recorded time.
///
/// A trace is what a GPX file (or a `route:` list) contributes to playback, independent of where it came from.
/// Between segments there is a gap: playback jumps from the end of one to the start of the next, never drawing
/// a line across.
public struct Trace: Sendable, Equatable {
    /// One continuous part of a trace.
    public struct Segment: Sendable, Equatable {
        public var latitudes: [Double] = []
        public var longitudes: [Double] = []
        /// Recorded times (microseconds since the epoch); `nil` where the point has none.
        public var times: [Int64?] = []
        /// Whether points are replayed at their own recorded times (GPX tracks) rather than visited in order and
        /// sampled at the playback interval (waypoints, routes).
        public var playsRecordedTimes: Bool

        public init(playsRecordedTimes: Bool) {
            self.playsRecordedTimes = playsRecordedTimes
        }

        public var count: Int { latitudes.count }

        public mutating func append(latitude: Double, longitude: Double, time: Int64?) {
            latitudes.append(latitude)
            longitudes.append(longitude)
            times.append(time)
        }

        /// Whether every point has a time, so the segment can play its recorded times.
        var isFullyTimed: Bool { times.allSatisfy { $0 != nil } }
    }

    /// A name for messages (the file, or `route`).
    public var name: String
    public var segments: [Segment]

    public init(name: String, segments: [Segment]) {
        self.name = name
        self.segments = segments.filter { $0.count > 0 }
    }

    public var pointCount: Int { segments.reduce(0) { $0 + $1.count } }

    /// The longest span of time a sampled path (waypoints, a route) may cover, 366 days like a run's
    /// `--duration`: a route timed from year 1 to 9999 would otherwise play 3 × 10¹¹ samples, one per interval.
    /// Track segments play their own points at their own times, so their span costs nothing.
    public static let maxTimeSpan: Int64 = 31_622_400 * 1_000_000

    /// Why a trace whose points are timed from `first` to `last` cannot be played, or `nil` when it can.
    public static func timeSpanRefusal(first: Timestamp, last: Timestamp) -> String? {
        let span = last.microseconds - first.microseconds
        guard span > maxTimeSpan else { return nil }
        return "its points are timed from \(first.iso8601) to \(last.iso8601), \(span / 86_400_000_000) days: "
            + "playback covers at most 366 days (\(maxTimeSpan / 1_000_000) s)"
    }

    /// The earliest and latest recorded times of the points of sampled segments (waypoints, routes), if any.
    public var sampledTimeRange: (first: Timestamp, last: Timestamp)? {
        var first = Int64.max
        var last = Int64.min
        for segment in segments where !segment.playsRecordedTimes {
            for case let time? in segment.times {
                first = min(first, time)
                last = max(last, time)
            }
        }
        return first <= last ? (Timestamp(microseconds: first), Timestamp(microseconds: last)) : nil
    }
}
