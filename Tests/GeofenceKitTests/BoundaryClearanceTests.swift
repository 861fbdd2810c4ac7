import Foundation
import TestSupport
import Testing

@testable import GeofenceKit

/// The exact path skips the containment tests of a sample that stays within its device's ``BoundaryClearance``:
/// its events must be those of testing every region at every sample, and both bounds it rests on must hold.
@Suite struct BoundaryClearanceTests {
    /// Devices walking among circles around `centre`: radii from 1 m to 20 km, steps from 0.3 m to 80 m, some
    /// devices standing still, so that crossings, near-misses and long skips all occur. With `wholeMetres`, every
    /// radius is rounded to a whole number of metres (the same walk otherwise).
    static func walk(
        around centre: (latitude: Double, longitude: Double), devices: Int = 40, steps: Int = 300, seed: UInt64,
        wholeMetres: Bool = false
    ) -> (regions: [[MonitoredRegion]], samples: [(device: Int32, latitude: Double, longitude: Double)]) {
        var rng = SplitMix64(seed: seed)
        var regions: [[MonitoredRegion]] = []
        var positions: [(latitude: Double, longitude: Double, heading: Double, step: Double)] = []
        for device in 0..<devices {
            let start = GeoMotion.move(
                centre.latitude, centre.longitude, north: rng.uniform(-3_000...3_000), east: rng.uniform(-3_000...3_000))
            regions.append(
                (0..<20).map { k in
                    let middle = GeoMotion.move(
                        start.latitude, start.longitude, north: rng.uniform(-4_000...4_000),
                        east: rng.uniform(-4_000...4_000))
                    let drawn = k == 0 ? 20_000 : k == 1 ? 1 : rng.uniform(5...3_000)
                    let radius = wholeMetres ? drawn.rounded() : drawn
                    let circle = CircleGeometry(center: Coordinate(unchecked: middle.latitude, middle.longitude), radius: radius)
                    return MonitoredRegion(id: Int32(device * 20 + k), geometry: .circle(circle))
                })
            let step = device % 10 == 0 ? 0 : device % 3 == 0 ? rng.uniform(0.3...2) : rng.uniform(2...80)
            positions.append((start.latitude, start.longitude, rng.uniform(0...(2 * .pi)), step))
        }
        var samples: [(device: Int32, latitude: Double, longitude: Double)] = []
        for _ in 0...steps {
            for device in 0..<devices {
                var p = positions[device]
                samples.append((Int32(device), p.latitude, p.longitude))
                p.heading += rng.uniform(-0.6...0.6)
                (p.latitude, p.longitude) = GeoMotion.move(
                    p.latitude, p.longitude, north: p.step * cos(p.heading), east: p.step * sin(p.heading))
                positions[device] = p
            }
        }
        return (regions, samples)
    }

    @Test(arguments: [
        (25.03, 121.56), (0.0, 0.0), (-33.9, 151.2), (74.5, 18.9), (80.0, 10.0), (-60.0, 179.99), (89.9, 0.0),
    ])
    func skippingGivesTheEventsOfTestingEveryRegionAtEverySample(latitude: Double, longitude: Double) async throws {
        let (events, expected, plainCircles) = try await inBackground {
            Self.skippingAndTestingEverything(around: (latitude, longitude))
        }
        #expect(expected.count > 20)
        #expect(events == expected)
        // Radii a `Float` does not hold: the slot tests compiled for any table, exact radii kept apart.
        #expect(!plainCircles)
    }

    /// The same walk with whole-metre radii: the table keeps no exact radii and has no polygon, so its slots take
    /// the tests compiled for plain circles (``SlotKinds``).
    @Test(arguments: [
        (25.03, 121.56), (0.0, 0.0), (-33.9, 151.2), (74.5, 18.9), (80.0, 10.0), (-60.0, 179.99), (89.9, 0.0),
    ])
    func skippingAmongPlainCirclesGivesTheEventsOfTestingEveryRegionAtEverySample(
        latitude: Double, longitude: Double
    ) async throws {
        let (events, expected, plainCircles) = try await inBackground {
            Self.skippingAndTestingEverything(around: (latitude, longitude), wholeMetres: true)
        }
        #expect(expected.count > 20)
        #expect(events == expected)
        #expect(plainCircles)
    }

    /// The events of the monitor, which skips what cannot have changed, and those of testing every region at
    /// every sample, on the same walk; and whether the monitor's slots are all plain circles (``SlotKinds``).
    static func skippingAndTestingEverything(
        around start: (latitude: Double, longitude: Double), wholeMetres: Bool = false
    ) -> (events: [GeofenceEvent], expected: [GeofenceEvent], plainCircles: Bool) {
        let (latitude, longitude) = start
        let (regions, samples) = Self.walk(
            around: (latitude, longitude), seed: UInt64(abs(latitude * 100)) + 1, wholeMetres: wholeMetres)
        var state = MonitorState(settings: .exact) { regions[Int($0)] }
        var events: [GeofenceEvent] = []
        var expected: [GeofenceEvent] = []
        var inside: [[Bool]?] = Array(repeating: nil, count: regions.count)
        for (index, sample) in samples.enumerated() {
            let time = Timestamp(microseconds: Int64(index) * 1_000)
            _ = state.evaluate(
                device: sample.device, latitude: sample.latitude, longitude: sample.longitude, time: time,
                into: &events)
            let device = Int(sample.device)
            let now = regions[device].map { $0.geometry.contains(latitude: sample.latitude, longitude: sample.longitude) }
            if let before = inside[device] {
                for (k, region) in regions[device].enumerated() where now[k] != before[k] {
                    expected.append(
                        GeofenceEvent(
                            device: sample.device, region: region.id, kind: now[k] ? .enter : .exit, time: time,
                            latitude: sample.latitude, longitude: sample.longitude))
                }
            }
            inside[device] = now
        }
        return (events, expected, !state.slots.hasExactRadii && state.polygons.isEmpty)
    }

    @Test func theLargestRadiusOfCurvatureIsThePolesOne() {
        let polar = Geodesic.semiMajorAxis / (1 - Geodesic.eccentricitySquared).squareRoot()
        #expect(abs(BoundaryClearance.largestRadius - polar) < 1e-6)
    }

    @Test func theDiscOnlyCoversPositionsCloserThanItsRadius() {
        var rng = SplitMix64(seed: 7)
        var covered = 0
        for _ in 0..<50_000 {
            let latitude = rng.uniform(-89.9...89.9)
            let longitude = rng.uniform(-180...180)
            let radius = rng.uniform(0...6_000)
            let disc = BoundaryClearance(SamplePlane(latitude: latitude, longitude: longitude), radius: radius)
            let point = GeoMotion.move(
                latitude, longitude, north: rng.uniform(-7_000...7_000), east: rng.uniform(-7_000...7_000))
            guard disc.covers(latitude: point.latitude, longitude: point.longitude) else { continue }
            covered += 1
            let distance = Geodesic.distance(
                latitude1: latitude, longitude1: longitude, latitude2: point.latitude, longitude2: point.longitude)
            #expect(distance < min(radius, BoundaryClearance.maximumRadius), "\(latitude), \(longitude), \(radius)")
        }
        #expect(covered > 1_000)
        #expect(!BoundaryClearance.none.covers(latitude: 0, longitude: 0))
    }

    /// The path is measured without wrapping the longitudes: across the antimeridian it goes the long way round,
    /// which must still bound the distance from above (near the poles, where that way is short, too).
    @Test func aMoveAcrossTheAntimeridianIsStillBounded() {
        var rng = SplitMix64(seed: 9)
        var bounded = 0
        for _ in 0..<20_000 {
            let latitude = rng.uniform(-89.99...89.99)
            let centre = rng.uniform(179.99...180)
            let point = GeoMotion.move(latitude, centre, north: rng.uniform(-3_000...3_000), east: rng.uniform(0...3_000))
            let disc = BoundaryClearance(SamplePlane(latitude: latitude, longitude: centre), radius: 5_000)
            let moved = disc.movedSquared(latitude: point.latitude, longitude: point.longitude)
            let distance = Geodesic.distance(
                latitude1: latitude, longitude1: centre, latitude2: point.latitude, longitude2: point.longitude)
            guard moved.isFinite else { continue }
            bounded += 1
            #expect(BoundaryClearance.metres(fromSquared: moved) >= distance, "\(latitude), \(point.longitude)")
        }
        #expect(bounded > 100)
    }

    @Test func theClearanceIsALowerBoundOfTheDistanceToTheBoundary() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<50_000 {
            let centre = (latitude: rng.uniform(-74.9...74.9), longitude: rng.uniform(-180...180))
            let radius = [rng.uniform(0.5...100), rng.uniform(100...10_000), rng.uniform(10_000...100_000)][Int(rng.next() % 3)]
            let circle = CircleGeometry(center: Coordinate(unchecked: centre.latitude, centre.longitude), radius: radius)
            let reach = radius + 8_000
            let point = GeoMotion.move(
                centre.latitude, centre.longitude, north: rng.uniform(-reach...reach), east: rng.uniform(-reach...reach))
            var clearance = Double.infinity
            let inside = PackedRegion(circle).circleContains(
                SamplePlane(latitude: point.latitude, longitude: point.longitude), radius: radius, clearance: &clearance)
            let distance = Geodesic.distance(
                latitude1: centre.latitude, longitude1: centre.longitude, latitude2: point.latitude,
                longitude2: point.longitude)
            #expect(inside == (distance <= radius))
            #expect(clearance <= abs(distance - radius), "r \(radius), distance \(distance), clearance \(clearance)")
        }
    }
}
