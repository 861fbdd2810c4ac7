import Testing
@testable import GeofenceKit

/// The continuous-time truth: crossings between samples, found on the exact containment test.
@Suite struct CrossingSearchTests {
    static let center = Coordinate(unchecked: 25.0, 121.5)
    static let circle = RegionGeometry.circle(CircleGeometry(center: center, radius: 100))
    static let square = RegionGeometry.polygon(PolygonGeometry(polygons: [[
        [.init(unchecked: 24.99, 121.49), .init(unchecked: 24.99, 121.51), .init(unchecked: 25.01, 121.51),
         .init(unchecked: 25.01, 121.49), .init(unchecked: 24.99, 121.49)],
        // A hole in the middle.
        [.init(unchecked: 24.999, 121.499), .init(unchecked: 24.999, 121.501), .init(unchecked: 25.001, 121.501),
         .init(unchecked: 25.001, 121.499)],
    ]]))

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var geometry: RegionGeometry
        var from: (latitude: Double, longitude: Double)
        var to: (latitude: Double, longitude: Double)
        var expected: [Bool]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "pass-through a circle between two samples 2.2 km apart", geometry: circle,
             from: (25.0, 121.489), to: (25.0, 121.511), expected: [true, false]),
        Case(name: "into a circle", geometry: circle, from: (25.0, 121.489), to: (25.0, 121.5), expected: [true]),
        Case(name: "out of a circle", geometry: circle, from: (25.0, 121.5), to: (25.003, 121.5), expected: [false]),
        Case(name: "past a circle without touching it", geometry: circle,
             from: (25.0011, 121.489), to: (25.0011, 121.511), expected: []),
        Case(name: "inside a circle all along", geometry: circle, from: (25.0, 121.4995), to: (25.0, 121.5005), expected: []),
        Case(name: "through a polygon and its hole", geometry: square,
             from: (25.0, 121.48), to: (25.0, 121.52), expected: [true, false, true, false]),
        Case(name: "diagonally across a polygon's corner", geometry: square,
             from: (24.985, 121.495), to: (24.995, 121.485), expected: [true, false]),
        Case(name: "beside a polygon", geometry: square, from: (25.02, 121.48), to: (25.02, 121.52), expected: []),
    ]

    @Test(arguments: cases)
    func crossingsAlongASegment(_ test: Case) {
        let crossings = CrossingSearch.crossings(of: test.geometry, from: test.from, to: test.to, resolution: 1e-9)
        #expect(crossings.map(\.entering) == test.expected)
        #expect(crossings.map(\.fraction) == crossings.map(\.fraction).sorted())
        // Each crossing is where the exact test changes its answer: the new state at the fraction, the old one
        // just before it.
        for crossing in crossings {
            func inside(_ s: Double) -> Bool {
                // Where the player puts the device along the segment (the shorter way).
                let position = GeoMotion.interpolate(
                    test.from.latitude, test.from.longitude, test.to.latitude, test.to.longitude, fraction: s)
                return test.geometry.contains(latitude: position.latitude, longitude: position.longitude)
            }
            #expect(inside(crossing.fraction) == crossing.entering)
            #expect(inside(crossing.fraction - 2e-9) != crossing.entering)
        }
    }

    @Test func circleCrossingsAreAtTheGeodesicRadius() {
        let crossings = CrossingSearch.crossings(of: Self.circle, from: (25.0, 121.489), to: (25.0, 121.511), resolution: 1e-9)
        try? #require(crossings.count == 2)
        for crossing in crossings {
            let position = GeoMotion.interpolate(25.0, 121.489, 25.0, 121.511, fraction: crossing.fraction)
            let distance = Geodesic.distance(
                latitude1: 25, longitude1: 121.5, latitude2: position.latitude, longitude2: position.longitude)
            #expect(abs(distance - 100) < 0.01)
        }
    }

    @Test func trackerReportsTimedCrossingsAfterASilentFirstSample() {
        let regions = [
            MonitoredRegion(id: 0, geometry: Self.circle),
            MonitoredRegion(id: 1, geometry: Self.square, notifyOnEntry: false),
        ]
        var tracker = TruthTracker(device: 7, regions: regions)
        // Starts inside the square: no event for it at the start, nor on the way back in from its hole
        // (notifyOnEntry false).
        #expect(tracker.advance(latitude: 25.0, longitude: 121.495, time: Timestamp(microseconds: 0)).isEmpty)
        let events = tracker.advance(latitude: 25.0, longitude: 121.52, time: Timestamp(microseconds: 100_000_000))
        // Into the hole (an exit of the square), through the circle, out of the hole, out of the square.
        #expect(events.map(\.kind) == [.exit, .enter, .exit, .exit])
        #expect(events.map(\.region) == [1, 0, 0, 1])
        #expect(events.allSatisfy { $0.device == 7 })
        // The circle spans 121.49901…121.50099 at 25° N: the device covers 0.025° in 100 s.
        let enter = events[1].time.seconds
        #expect(abs(enter - (121.5 - 0.000_992_2 - 121.495) / 0.025 * 100) < 0.05)
        #expect(events.map(\.time) == events.map(\.time).sorted())
        // The polygon's exit: where the device leaves 121.51, to 1 ms.
        #expect(abs(events[3].time.seconds - 0.015 / 0.025 * 100) < 0.002)
        #expect(abs(events[3].longitude - 121.51) < 1e-6)
    }

    @Test func trackerChangesStateInPlaceWhenTheDeviceJumps() {
        var tracker = TruthTracker(device: 0, regions: [MonitoredRegion(id: 3, geometry: Self.circle)])
        _ = tracker.advance(latitude: 25.0, longitude: 121.6, time: Timestamp(microseconds: 5))
        let events = tracker.advance(latitude: 25.0, longitude: 121.5, time: Timestamp(microseconds: 5))
        #expect(events.map(\.kind) == [.enter])
        #expect(events.first?.time == Timestamp(microseconds: 5))
    }
}
