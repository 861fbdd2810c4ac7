import Foundation
import Testing

@testable import GeofenceKit

/// Positions between waypoints, and displaced positions, take the shorter way across ±180° and over the poles.
@Suite(.serialized) struct GeoMotionTests {
    @Test(arguments: try ThresholdReference.load().legs)
    func interpolatedPositionsFollowTheShorterWay(leg: ThresholdReference.Pair) {
        let s = leg.distance
        for f in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
            let p = GeoMotion.interpolate(leg.latitude1, leg.longitude1, leg.latitude2, leg.longitude2, fraction: f)
            #expect(abs(p.latitude) <= 90 && abs(p.longitude) <= 180)
            let fromStart = Geodesic.distance(
                latitude1: leg.latitude1, longitude1: leg.longitude1, latitude2: p.latitude, longitude2: p.longitude)
            let toEnd = Geodesic.distance(
                latitude1: p.latitude, longitude1: p.longitude, latitude2: leg.latitude2, longitude2: leg.longitude2)
            // On the shortest path between the ends (within 0.1 % of its length), the fraction f along it (1 %).
            #expect(fromStart + toEnd <= s * 1.001 + 1e-6, "\(leg) at \(f)")
            #expect(abs(fromStart - f * s) <= 0.01 * s + 1e-6, "\(leg) at \(f)")
        }
    }

    @Test func aRouteAcrossTheAntimeridianStaysNearIt() throws {
        let trace = try Trace.route("10,179.99;10.01,-179.99")
        var player = TracePlayer(
            timeline: TraceTimeline(trace: trace, speed: 10, interval: 1), start: Timestamp(microseconds: 0), interval: 1)
        var previous: (Double, Double)?
        var count = 0
        while let sample = player.next() {
            count += 1
            #expect(abs(sample.longitude) >= 179.98, "\(sample)")
            if let previous {
                let step = Geodesic.distance(
                    latitude1: previous.0, longitude1: previous.1, latitude2: sample.latitude, longitude2: sample.longitude)
                #expect(step <= 10.01, "a step of \(step) m")
            }
            previous = (sample.latitude, sample.longitude)
        }
        // About 2.2 km at 10 m/s: some 220 samples, not 40,000 km worth of them.
        #expect(count > 200 && count < 260)
    }

    @Test func aRouteOverThePolePassesOverIt() throws {
        let trace = try Trace.route("89,0;89,180")
        var player = TracePlayer(
            timeline: TraceTimeline(trace: trace, speed: 1_000, interval: 1), start: Timestamp(microseconds: 0),
            interval: 1)
        var northmost = -90.0
        var previous: (Double, Double)?
        while let sample = player.next() {
            northmost = max(northmost, sample.latitude)
            if let previous {
                let step = Geodesic.distance(
                    latitude1: previous.0, longitude1: previous.1, latitude2: sample.latitude, longitude2: sample.longitude)
                #expect(step <= 1_000 * 1.01, "a step of \(step) m")
            }
            previous = (sample.latitude, sample.longitude)
        }
        #expect(northmost > 89.99)
    }

    @Test(arguments: [0.0, 60.0, 85.0, 89.999, -89.99999])
    func displacementsAreTheirDistanceAwayEvenNearThePoles(latitude: Double) {
        for (north, east) in [(100.0, 0.0), (0, 100), (-70, 70), (30_000, -40_000)] {
            let moved = GeoMotion.move(latitude, 179.999, north: north, east: east)
            #expect(abs(moved.latitude) <= 90 && abs(moved.longitude) <= 180)
            let distance = Geodesic.distance(
                latitude1: latitude, longitude1: 179.999, latitude2: moved.latitude, longitude2: moved.longitude)
            let expected = (north * north + east * east).squareRoot()
            #expect(abs(distance - expected) <= 0.01 * expected, "moved \(distance) m instead of \(expected) m")
        }
    }

    @Test func theGroundTruthFollowsTheShorterWayToo() {
        let crossing = RegionGeometry.circle(CircleGeometry(center: Coordinate(unchecked: 10.005, 180), radius: 300))
        let farSide = RegionGeometry.circle(CircleGeometry(center: Coordinate(unchecked: 10, 0), radius: 100_000))
        let a = (latitude: 10.0, longitude: 179.99), b = (latitude: 10.01, longitude: -179.99)
        #expect(CrossingSearch.crossings(of: crossing, from: a, to: b, resolution: 1e-9).map(\.entering) == [true, false])
        #expect(CrossingSearch.crossings(of: farSide, from: a, to: b, resolution: 1e-9).isEmpty)
    }
}
