import Foundation

/// A trace turned into times relative to its start: what a device replays, shifted to its own start time.
///
/// For each segment: a segment that plays recorded times keeps each point at its recorded offset; any other
/// segment is a path visited in order, where a leg between two timed points (the later one later) takes the
/// recorded time between them and any other leg takes its length divided by the playback speed — as Xcode
/// plays a GPX file of waypoints. A path starts one interval after the previous segment ended. A recorded segment
/// starts where its times say: its recorded gap after the recorded segment before it — unless that is before the
/// previous segment ended (a path played before it, or times that go back), when it starts one interval after
/// that, and the recorded segments after it keep their recorded gaps from there.
public struct TraceTimeline: Sendable {
    public struct Segment: Sendable {
        /// Seconds from the trace's start, non-decreasing.
        public var offsets: [Double]
        public var latitudes: [Double]
        public var longitudes: [Double]
        /// Whether the points are emitted as they are, or sampled at the playback interval.
        public var isSampled: Bool
    }

    public var segments: [Segment]
    /// Seconds from the first point to the last.
    public var duration: Double { segments.last?.offsets.last ?? 0 }

    /// - Parameters:
    ///   - speed: metres per second along legs without usable times (> 0).
    ///   - interval: seconds between samples of a sampled path; also the pause between path segments.
    public init(trace: Trace, speed: Double, interval: Double) {
        var segments: [Segment] = []
        var origin: Int64?  // the recorded time that offset 0 stands for, before `shift`
        var shift = 0.0  // how much later than their recorded times recorded segments play (paths pushed them)
        var clock = 0.0  // where the previous segment ended
        for (index, segment) in trace.segments.enumerated() {
            let start = index == 0 ? 0 : clock + interval
            let recorded = segment.playsRecordedTimes && segment.isFullyTimed
            var offsets: [Double] = []
            offsets.reserveCapacity(segment.count)
            if recorded, let first = segment.times[0] {
                // Recorded times keep the gaps between segments as recorded, when they are later.
                let base = origin ?? first
                origin = base
                let recordedStart = Double(first - base) / 1e6 + shift
                if recordedStart < start { shift += start - recordedStart }
                for time in segment.times {
                    offsets.append(Double((time ?? first) - base) / 1e6 + shift)
                }
            } else {
                offsets.append(start)
                for i in 1..<max(1, segment.count) {
                    let legTime: Double
                    if let t0 = segment.times[i - 1], let t1 = segment.times[i], t1 > t0 {
                        legTime = Double(t1 - t0) / 1e6
                    } else {
                        legTime = Geodesic.distance(
                            latitude1: segment.latitudes[i - 1], longitude1: segment.longitudes[i - 1],
                            latitude2: segment.latitudes[i], longitude2: segment.longitudes[i]) / speed
                    }
                    offsets.append(offsets[i - 1] + legTime)
                }
            }
            clock = offsets.last ?? start
            segments.append(
                Segment(offsets: offsets, latitudes: segment.latitudes, longitudes: segment.longitudes, isSampled: !recorded))
        }
        self.segments = segments
    }
}
