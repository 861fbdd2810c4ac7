/// Replays a ``TraceTimeline`` for one device: the samples it reports, in time order.
///
/// Recorded segments yield their points at their own (shifted) times. Sampled segments yield a position every
/// `interval` seconds, interpolated between the points around it (as Xcode moves a simulated location between
/// waypoints) along the shorter way — across ±180° rather than through 0°, over a pole when that is shorter (see
/// ``GeoMotion/interpolate(_:_:_:_:fraction:)``) — and finally the segment's last point, so every waypoint's leg is
/// completed.
public struct TracePlayer: Sendable {
    private let timeline: TraceTimeline
    private let start: Int64
    private let interval: Double
    private let northOffset: Double
    private let eastOffset: Double
    private var segment = 0
    private var point = 0
    private var tick = 0
    private var emittedLast = false
    /// The current leg's ends, displaced (segment, point index, and the two positions).
    private var leg: (segment: Int, point: Int, start: (Double, Double), end: (Double, Double)) = (-1, -1, (0, 0), (0, 0))

    /// - Parameters:
    ///   - start: the time (µs since the epoch) of the timeline's offset 0 for this device.
    ///   - offset: a constant displacement in metres (north, east) applied to every position (seeded jitter).
    public init(timeline: TraceTimeline, start: Timestamp, interval: Double, offset: (north: Double, east: Double) = (0, 0)) {
        self.timeline = timeline
        self.start = start.microseconds
        self.interval = interval
        northOffset = offset.north
        eastOffset = offset.east
    }

    /// The next sample, or `nil` when the trace is over.
    public mutating func next() -> (latitude: Double, longitude: Double, time: Timestamp)? {
        while segment < timeline.segments.count {
            let current = timeline.segments[segment]
            let offsets = current.offsets
            if !current.isSampled {
                if point < offsets.count {
                    defer { point += 1 }
                    return sample(current.latitudes[point], current.longitudes[point], at: offsets[point])
                }
            } else {
                let last = offsets[offsets.count - 1]
                let offset = offsets[0] + Double(tick) * interval
                if offset < last {
                    tick += 1
                    // offset < last, so a later point exists with a larger offset.
                    while offsets[point + 1] <= offset { point += 1 }
                    let f = (offset - offsets[point]) / (offsets[point + 1] - offsets[point])
                    // Between the leg's displaced ends, along the shorter way: across ±180° rather than through
                    // 0°, over a pole when shorter. (Displacing the ends, not each sample, keeps the samples on the
                    // path that the ground truth follows.)
                    if leg.segment != segment || leg.point != point {
                        leg = (
                            segment, point, displaced(current.latitudes[point], current.longitudes[point]),
                            displaced(current.latitudes[point + 1], current.longitudes[point + 1])
                        )
                    }
                    let position = GeoMotion.interpolate(leg.start.0, leg.start.1, leg.end.0, leg.end.1, fraction: f)
                    return (position.latitude, position.longitude, time(offset))
                }
                if !emittedLast {
                    emittedLast = true
                    return sample(current.latitudes[offsets.count - 1], current.longitudes[offsets.count - 1], at: last)
                }
            }
            segment += 1
            point = 0
            tick = 0
            emittedLast = false
        }
        return nil
    }

    private func sample(_ latitude: Double, _ longitude: Double, at offset: Double) -> (Double, Double, Timestamp) {
        let position = displaced(latitude, longitude)
        return (position.0, position.1, time(offset))
    }

    private func time(_ offset: Double) -> Timestamp {
        Timestamp(microseconds: start + Int64((offset * 1e6).rounded()))
    }

    /// A trace point moved by the device's offset, at its own latitude (on the ellipsoid near the poles).
    private func displaced(_ latitude: Double, _ longitude: Double) -> (Double, Double) {
        guard northOffset != 0 || eastOffset != 0 else { return (latitude, longitude) }
        let moved = GeoMotion.move(latitude, longitude, north: northOffset, east: eastOffset)
        return (moved.latitude, moved.longitude)
    }
}
