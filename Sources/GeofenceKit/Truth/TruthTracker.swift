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
    /// Each circle's local plane, for the quick test that skips most segments.
    private let scales: [LocalScale?]
    private var inside: [Bool] = []
    private var last: (latitude: Double, longitude: Double, time: Int64)?

    public init(device: Int32, regions: [MonitoredRegion]) {
        self.device = device
        self.regions = regions
        scales = regions.map {
            if case .circle(let circle) = $0.geometry { LocalScale(latitude: circle.center.latitude) } else { nil }
        }
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
        var resolution: Double?
        var found: [(fraction: Double, order: Int, event: GeofenceEvent)] = []
        for (index, region) in regions.enumerated() {
            let now = region.geometry.contains(latitude: latitude, longitude: longitude)
            // Most segments stay well clear of most boundaries: skip them without searching.
            guard now != inside[index]
                || CrossingSearch.mayPassThrough(
                    region.geometry, from: (from.latitude, from.longitude), to: (latitude, longitude), inside: now,
                    scale: scales[index])
            else { continue }
            let crossings: [CrossingSearch.Crossing]
            if from.latitude == latitude && from.longitude == longitude {
                // Standing still (or a repeated position): at most a change of state in place.
                crossings = now == inside[index] ? [] : [.init(fraction: 1, entering: now)]
            } else {
                let step = resolution ?? Self.resolution(from: from, to: (latitude, longitude, time.microseconds))
                resolution = step
                crossings = CrossingSearch.crossings(
                    of: region.geometry, from: (from.latitude, from.longitude), to: (latitude, longitude), resolution: step)
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
            inside[index] = now
        }
        found.sort { ($0.fraction, $0.order) < ($1.fraction, $1.order) }
        return found.map(\.event)
    }

    /// The fraction of a segment that is 1 ms or 1 cm (on an equirectangular estimate of its length), whichever
    /// is shorter.
    static func resolution(
        from a: (latitude: Double, longitude: Double, time: Int64), to b: (latitude: Double, longitude: Double, time: Int64)
    ) -> Double {
        let duration = Double(b.time - a.time) / 1e6
        let scale = LocalScale(latitude: (a.latitude + b.latitude) / 2)
        var dx = abs(b.longitude - a.longitude)
        if dx > 180 { dx = 360 - dx }
        let north = (b.latitude - a.latitude) * scale.metresPerDegreeLatitude
        let east = dx * scale.metresPerDegreeLongitude
        let length = (north * north + east * east).squareRoot()
        var resolution = 1.0
        if duration > 0 { resolution = min(resolution, timeResolution / duration) }
        if length > 0 { resolution = min(resolution, distanceResolution / length) }
        return max(resolution, 1e-12)
    }
}
