import Foundation
import Testing

@testable import GeofenceKit

/// Every profile rule that compares a distance with a threshold, checked against geographiclib distances from
/// 0° to 89.9°, across ±180°, from 1 m to 1,000 km, with the threshold placed a couple of millimetres either side
/// of the true distance — where an unguarded plane (metres off at high latitudes and large radii) would decide
/// wrongly.
@Suite(.serialized) struct ThresholdRuleTests {
    /// How far either side of the reference distance a threshold is placed: well above the geodesic's error.
    static func delta(_ distance: Double) -> Double { 2e-3 + 2e-9 * distance }

    /// The event kinds a device produces when it reports `samples` (latitude, longitude, accuracy), 1 s apart.
    static func events(
        _ settings: MonitorSettings, _ region: MonitoredRegion, _ samples: [(Double, Double, Double?)]
    ) -> [EventKind] {
        var state = MonitorState(settings: settings, seed: 1) { _ in [region] }
        var events: [GeofenceEvent] = []
        for (index, sample) in samples.enumerated() {
            _ = state.evaluate(
                device: 0, latitude: sample.0, longitude: sample.1, time: Timestamp(microseconds: Int64(index) * 1_000_000),
                accuracy: sample.2, into: &events)
        }
        return events.map(\.kind)
    }

    static func circle(_ pair: ThresholdReference.Pair, radius: Double) -> MonitoredRegion {
        MonitoredRegion(
            id: 0, geometry: .circle(CircleGeometry(center: Coordinate(unchecked: pair.latitude1, pair.longitude1), radius: radius)))
    }

    /// A position `distance` metres from the pair's first point, away from the nearer pole.
    static func far(_ pair: ThresholdReference.Pair, distance: Double) -> (Double, Double) {
        let end = Geodesic.destination(
            latitude: pair.latitude1, longitude: pair.longitude1, bearing: pair.latitude1 >= 0 ? 180 : 0,
            distance: distance)
        return (end.latitude, end.longitude)
    }

    /// A profile's settings with no initial trigger, no confirmation time and no radius limit, so that one sample
    /// shows the rule's decision.
    static func immediate(_ profile: MonitoringProfile, buffer: Double = 0) -> MonitorSettings {
        var settings = profile.settings
        settings.initialTriggers = []
        settings.maximumRadius = nil
        settings.hysteresis.confirmationTime = 0
        settings.hysteresis.bufferDistance = buffer
        settings.delivery = .instant  // delivery delays have their own tests
        settings.polygons = .monitor  // the thresholds of the rule itself, on any shape
        return settings
    }

    @Test(arguments: try ThresholdReference.load().pairs)
    func containmentAgreesWithGeographiclib(pair: ThresholdReference.Pair) {
        let s = pair.distance, d = Self.delta(s)
        for (radius, inside) in [(s + d, true), (s - d, false)] {
            let region = Self.circle(pair, radius: radius)
            #expect(region.geometry.contains(latitude: pair.latitude2, longitude: pair.longitude2) == inside, "r = \(radius)")
            let start = Self.far(pair, distance: 2 * radius + 1_000)
            let kinds = Self.events(.exact, region, [(start.0, start.1, nil), (pair.latitude2, pair.longitude2, nil)])
            #expect(kinds == (inside ? [.enter] : []), "r = \(radius)")
        }
    }

    @Test(arguments: try ThresholdReference.load().pairs)
    func iosExitNeedsTheGeodesicBufferDistance(pair: ThresholdReference.Pair) {
        let s = pair.distance, d = Self.delta(s)
        let buffer = min(200, s / 4)
        let settings = Self.immediate(.ios, buffer: buffer)
        // Exit once radius + buffer from the centre: the threshold just below the point's distance, then above.
        for (radius, exits) in [(s - buffer - d, true), (s - buffer + d, false)] {
            let kinds = Self.events(
                settings, Self.circle(pair, radius: radius),
                [(pair.latitude1, pair.longitude1, nil), (pair.latitude2, pair.longitude2, nil)])
            #expect(kinds == (exits ? [.exit] : []), "r = \(radius), buffer = \(buffer)")
        }
    }

    @Test(arguments: try ThresholdReference.load().pairs)
    func iosEntryNeedsTheGeodesicBufferDistance(pair: ThresholdReference.Pair) {
        let s = pair.distance, d = Self.delta(s)
        let buffer = min(200, s / 4)
        let settings = Self.immediate(.ios, buffer: buffer)
        for (radius, enters) in [(s + buffer + d, true), (s + buffer - d, false)] {
            let start = Self.far(pair, distance: 2 * (radius + buffer) + 1_000)
            let kinds = Self.events(
                settings, Self.circle(pair, radius: radius),
                [(start.0, start.1, nil), (pair.latitude2, pair.longitude2, nil)])
            #expect(kinds == (enters ? [.enter] : []), "r = \(radius), buffer = \(buffer)")
        }
    }

    /// The accuracy for which a circle of `radius` at `distance` (< radius) from the fence's centre has `fraction`
    /// inside (the share then falls as the accuracy grows).
    static func accuracy(forFraction fraction: Double, distance: Double, radius: Double) -> Double {
        var low = 1e-9, high = 1e9
        for _ in 0..<200 {
            let mid = (low * high).squareRoot()
            if RegionGeometry.lensFraction(distance: distance, accuracy: mid, radius: radius) > fraction {
                low = mid
            } else {
                high = mid
            }
        }
        let found = (low * high).squareRoot()
        precondition(abs(RegionGeometry.lensFraction(distance: distance, accuracy: found, radius: radius) - fraction) < 1e-9)
        return found
    }

    @Test(arguments: try ThresholdReference.load().pairs)
    func androidEntryDecidesOnTheGeodesicDistance(pair: ThresholdReference.Pair) {
        let s = pair.distance, d = Self.delta(s)
        let radius = max(1.5 * s, 200)
        let accuracy = Self.accuracy(forFraction: Confidence().enterFraction, distance: s, radius: radius)
        for (r, enters) in [(radius + d, true), (radius - d, false)] {
            let start = Self.far(pair, distance: 2 * (r + accuracy) + 1_000)
            let kinds = Self.events(
                Self.immediate(.android), Self.circle(pair, radius: r),
                [(start.0, start.1, accuracy), (pair.latitude2, pair.longitude2, accuracy)])
            #expect(kinds == (enters ? [.enter] : []), "r = \(r), accuracy = \(accuracy)")
        }
    }

    @Test(arguments: try ThresholdReference.load().pairs)
    func androidExitDecidesOnTheGeodesicDistance(pair: ThresholdReference.Pair) {
        let s = pair.distance, d = Self.delta(s)
        // The point outside the fence (s = 1.2 r), with the accuracy circle overlapping it by the exit share.
        let radius = s / 1.2
        let confidence = Confidence()
        let fraction = radius < confidence.smallRadius ? confidence.smallExitFraction : confidence.exitFraction
        var low = s - radius, high = s + radius  // no overlap at `low`; the whole fence (0.21 of it) at `high`
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if RegionGeometry.lensFraction(distance: s, accuracy: mid, radius: radius) < fraction { low = mid } else { high = mid }
        }
        let accuracy = (low + high) / 2
        for (r, exits) in [(radius - d, true), (radius + d, false)] {
            let kinds = Self.events(
                Self.immediate(.android), Self.circle(pair, radius: r),
                [(pair.latitude1, pair.longitude1, 1e-3), (pair.latitude2, pair.longitude2, accuracy)])
            #expect(kinds == (exits ? [.exit] : []), "r = \(r), accuracy = \(accuracy)")
        }
    }

    @Test(arguments: try ThresholdReference.load().pairs)
    func distanceFilterComparesTheGeodesicDistance(pair: ThresholdReference.Pair) {
        let s = pair.distance, d = Self.delta(s)
        for (minimum, delivered) in [(s - d, true), (s + d, false)] {
            var filter = LocationFilter(settings: LocationFilterSettings(distanceFilter: minimum), seed: 1, stride: 1)
            let first = filter.apply(
                device: 0, latitude: pair.latitude1, longitude: pair.longitude1, time: Timestamp(microseconds: 0),
                accuracy: nil)
            let second = filter.apply(
                device: 0, latitude: pair.latitude2, longitude: pair.longitude2,
                time: Timestamp(microseconds: 1_000_000), accuracy: nil)
            #expect(first.isDelivered)
            #expect(second.isDelivered == delivered, "minimum \(minimum)")
        }
    }

    @Test(arguments: try ThresholdReference.load().pairs)
    func guardedDistanceIsOnTheGeodesicSideOfItsThreshold(pair: ThresholdReference.Pair) {
        let s = pair.distance, d = Self.delta(s)
        for threshold in [s - d, s + d] {
            let distance = GuardedDistance.distance(
                latitude1: pair.latitude1, longitude1: pair.longitude1, latitude2: pair.latitude2,
                longitude2: pair.longitude2, comparedWith: threshold)
            #expect((distance <= threshold) == (s <= threshold), "threshold \(threshold), got \(distance)")
        }
    }
}
