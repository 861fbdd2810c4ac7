/// The exact truth of one device's path: every `enter` and `exit` of its regions, at the moment it happens.
///
/// A pure state machine fed the device's samples in time order. The first sample sets each region's state
/// silently (as the `exact` profile does); after that the device moves from sample to sample as
/// ``CrossingSearch`` describes, and every boundary crossing on the way is an event at its interpolated time and
/// place — also two crossings between the same two samples (a pass-through). A region's `notifyOnEntry` and
/// `notifyOnExit` flags decide whether its crossings are reported; the slot limit, hysteresis, dwell and
/// authorization of the profiles do not apply: this is what really happened.
public struct TruthTracker: Sendable {
    /// How precisely crossing times are found: seconds, or metres along the path, whichever is finer.
    public static let timeResolution = 0.001
    public static let distanceResolution = 0.01

    public let device: Int32
    private let regions: [MonitoredRegion]
    private var inside: [Bool] = []
    private var last: (latitude: Double, longitude: Double, time: Int64)?

    public init(device: Int32, regions: [MonitoredRegion]) {
        self.device = device
        self.regions = regions
    }

    /// The crossings between the previous sample and this one, in time order (`enter` / `exit` events whose
    /// `time` is the crossing's, rounded down to the microsecond, and whose position is the crossing point).
    public mutating func advance(latitude: Double, longitude: Double, time: Timestamp) -> [GeofenceEvent] {
        guard let from = last else {
            inside = regions.map { $0.geometry.contains(latitude: latitude, longitude: longitude) }
            last = (latitude, longitude, time.microseconds)
            return []
        }
        last = (latitude, longitude, time.microseconds)
        let duration = Double(time.microseconds - from.time) / 1e6
        let length = Geodesic.distance(
            latitude1: from.latitude, longitude1: from.longitude, latitude2: latitude, longitude2: longitude)
        var resolution = 1.0
        if duration > 0 { resolution = min(resolution, Self.timeResolution / duration) }
        if length > 0 { resolution = min(resolution, Self.distanceResolution / length) }
        resolution = max(resolution, 1e-12)

        var found: [(fraction: Double, order: Int, event: GeofenceEvent)] = []
        for (index, region) in regions.enumerated() {
            let crossings: [CrossingSearch.Crossing]
            if length == 0 {
                // Standing still (or a repeated position): at most a change of state in place.
                let now = region.geometry.contains(latitude: latitude, longitude: longitude)
                crossings = now == inside[index] ? [] : [.init(fraction: 1, entering: now)]
            } else {
                crossings = CrossingSearch.crossings(
                    of: region.geometry, from: (from.latitude, from.longitude), to: (latitude, longitude),
                    resolution: resolution)
            }
            for crossing in crossings {
                inside[index] = crossing.entering
                guard crossing.entering ? region.notifyOnEntry : region.notifyOnExit else { continue }
                let s = crossing.fraction
                let offset = Double(time.microseconds - from.time) * s
                let event = GeofenceEvent(
                    device: device, region: region.id, kind: crossing.entering ? .enter : .exit,
                    time: Timestamp(microseconds: from.time + Int64(offset.rounded(.down))),
                    latitude: from.latitude + s * (latitude - from.latitude),
                    longitude: from.longitude + s * (longitude - from.longitude))
                found.append((s, found.count, event))
            }
        }
        found.sort { ($0.fraction, $0.order) < ($1.fraction, $1.order) }
        return found.map(\.event)
    }
}
