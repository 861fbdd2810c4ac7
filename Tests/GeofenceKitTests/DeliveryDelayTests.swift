import Foundation
import Testing
@testable import GeofenceKit

/// The seeded delivery delays: their distribution, their determinism, and Android's responsiveness wait.
@Suite struct DeliveryDelayTests {
    /// Delays of `count` distinct events (devices × decision times), sorted, in seconds.
    static func sortedDelays(_ delay: DeliveryDelay, count: Int, responsiveness: Double = 0, seed: UInt64 = 7) -> [Double] {
        var delays: [Double] = []
        for i in 0..<count {
            let time: Int64 = 1_795_248_000_000_000 + Int64(i / 1_000) * 1_000_000
            let microseconds = delay.microseconds(
                seed: seed, device: Int32(i % 1_000), region: Int32(i % 20), kind: .enter, decidedAt: time,
                responsiveness: responsiveness)
            delays.append(Double(microseconds) / 1e6)
        }
        return delays.sorted()
    }

    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * q).rounded(.up)) - 1))]
    }

    @Test(arguments: [(180.0, 300.0), (120.0, 360.0), (30.0, 31.0)])
    func lognormalDelaysHaveTheConfiguredMedianAndP95(median: Double, p95: Double) {
        let delays = Self.sortedDelays(DeliveryDelay(.lognormal(median: median, p95: p95)), count: 50_000)
        let measuredMedian = Self.quantile(delays, 0.5), measuredP95 = Self.quantile(delays, 0.95)
        #expect(abs(measuredMedian / median - 1) < 0.05, "median \(measuredMedian)")
        #expect(abs(measuredP95 / p95 - 1) < 0.05, "p95 \(measuredP95)")
        #expect(delays.first.map { $0 > 0 } == true)
    }

    @Test func fixedAndInstantDelays() {
        #expect(Set(Self.sortedDelays(DeliveryDelay(.fixed(42.5)), count: 100)) == [42.5])
        #expect(Set(Self.sortedDelays(.instant, count: 100)) == [0])
        #expect(DeliveryDelay.instant.isInstant)
        #expect(DeliveryDelay(.fixed(0)).isInstant)
        #expect(!DeliveryDelay(.fixed(1)).isInstant)
    }

    @Test func responsivenessAddsAUniformWaitOverItsPeriod() {
        let delays = Self.sortedDelays(.instant, count: 20_000, responsiveness: 300)
        #expect(delays.first.map { $0 >= 0 } == true)
        #expect(delays.last.map { $0 < 300 } == true)
        #expect(abs(Self.quantile(delays, 0.5) - 150) < 7.5)
    }

    @Test func theDelayOfAnEventDependsOnlyOnTheSeedAndTheEvent() {
        let delay = DeliveryDelay(.lognormal(median: 180, p95: 300))
        func draw(seed: UInt64 = 1, device: Int32 = 3, region: Int32 = 4, kind: EventKind = .exit, time: Int64 = 10) -> Int64 {
            delay.microseconds(seed: seed, device: device, region: region, kind: kind, decidedAt: time)
        }
        #expect(draw() == draw())
        let others = [draw(seed: 2), draw(device: 4), draw(region: 5), draw(kind: .enter), draw(time: 11)]
        #expect(others.allSatisfy { $0 != draw() })
    }
}

/// The polygon's enclosing circle: it holds every vertex and is the smallest for simple shapes.
@Suite struct EnclosingCircleTests {
    @Test func aSquaresCircleIsItsCircumcircle() throws {
        let square = PolygonGeometry(polygons: [[[
            Coordinate(unchecked: 25, 121), Coordinate(unchecked: 25, 121.01), Coordinate(unchecked: 25.01, 121.01),
            Coordinate(unchecked: 25.01, 121), Coordinate(unchecked: 25, 121),
        ]]])
        let circle = try #require(square.enclosingCircle)
        #expect(abs(circle.center.latitude - 25.005) < 1e-4)
        #expect(abs(circle.center.longitude - 121.005) < 1e-4)
        let halfDiagonal = Geodesic.distance(latitude1: 25, longitude1: 121, latitude2: 25.01, longitude2: 121.01) / 2
        #expect(abs(circle.radius - halfDiagonal) < 5)
        for (latitude, longitude) in [(25.0, 121.0), (25.0, 121.01), (25.01, 121.01), (25.01, 121.0), (25.005, 121.005)] {
            #expect(circle.contains(latitude: latitude, longitude: longitude))
        }
    }

    @Test func aTrianglesCircleTouchesItsLongSideOnly() throws {
        // An obtuse triangle: the smallest circle has the long side as its diameter.
        let triangle = PolygonGeometry(polygons: [[[
            Coordinate(unchecked: 0, 0), Coordinate(unchecked: 0, 0.02), Coordinate(unchecked: 0.001, 0.01),
        ]]])
        let circle = try #require(triangle.enclosingCircle)
        let half = Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 0.02) / 2
        #expect(abs(circle.radius - half) < 2)
        #expect(abs(circle.center.latitude) < 1e-5)
    }
}
