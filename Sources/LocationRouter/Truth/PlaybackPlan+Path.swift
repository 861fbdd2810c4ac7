import GeofenceKit

extension PlaybackPlan {
    /// Every point of device `device`'s path in time order: each waypoint of its trace at the time the device
    /// passes it, displaced as the device's samples are. Between two points the device moves in a straight line
    /// (in latitude and longitude) at a uniform pace: where ``TracePlayer`` puts the samples it reports.
    public func path(ofDevice device: Int32) -> [(latitude: Double, longitude: Double, time: Timestamp)] {
        let placement = placement(ofDevice: device)
        let timeline = timeline(ofDevice: device)
        let scale = LocalScale(latitude: timeline.segments.first?.latitudes.first ?? 0)
        var points: [(latitude: Double, longitude: Double, time: Timestamp)] = []
        for segment in timeline.segments {
            for i in segment.offsets.indices {
                let time = Timestamp(microseconds: placement.start.microseconds + Int64((segment.offsets[i] * 1e6).rounded()))
                var position = (latitude: segment.latitudes[i], longitude: segment.longitudes[i])
                if placement.north != 0 || placement.east != 0 {
                    position = scale.move(position.latitude, position.longitude, north: placement.north, east: placement.east)
                }
                points.append((position.latitude, position.longitude, time))
            }
        }
        return points
    }
}
