import GeofenceKit

extension PlaybackPlan {
    /// Every point of device `device`'s path in time order: each waypoint of its trace at the time the device
    /// passes it, displaced as the device's samples are (``GeoMotion/move(_:_:north:east:)``). Between two points the
    /// device moves at a uniform pace along ``GeoMotion/interpolate(_:_:_:_:fraction:)``: where ``TracePlayer`` puts
    /// the samples it reports.
    public func path(ofDevice device: Int32) -> [(latitude: Double, longitude: Double, time: Timestamp)] {
        let placement = placement(ofDevice: device)
        let timeline = timeline(ofDevice: device)
        var points: [(latitude: Double, longitude: Double, time: Timestamp)] = []
        for segment in timeline.segments {
            for i in segment.offsets.indices {
                let time = Timestamp(microseconds: placement.start.microseconds + Int64((segment.offsets[i] * 1e6).rounded()))
                var position = (latitude: segment.latitudes[i], longitude: segment.longitudes[i])
                if placement.north != 0 || placement.east != 0 {
                    position = GeoMotion.move(position.latitude, position.longitude, north: placement.north, east: placement.east)
                }
                points.append((position.latitude, position.longitude, time))
            }
        }
        return points
    }
}
