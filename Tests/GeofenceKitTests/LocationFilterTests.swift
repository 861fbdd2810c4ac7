import Foundation
import Testing
@testable import GeofenceKit

@Suite struct LocationFilterTests {
    /// Positions `metres` north of (25, 121).
    static func north(_ metres: Double) -> (Double, Double) {
        let p = Geodesic.destination(latitude: 25, longitude: 121, bearing: 0, distance: metres)
        return (p.latitude, p.longitude)
    }

    static func delivered(_ settings: LocationFilterSettings, _ steps: [(metres: Double, seconds: Int64)]) -> [Bool] {
        var filter = LocationFilter(settings: settings, seed: 1)
        return steps.map { step in
            let (lat, lon) = north(step.metres)
            return filter.apply(
                device: 0, latitude: lat, longitude: lon, time: Timestamp(microseconds: step.seconds * 1_000_000),
                accuracy: nil
            ).isDelivered
        }
    }

    @Test func theDistanceFilterDeliversOnlyAfterMovingThatFarFromTheLastDelivered() {
        let steps: [(Double, Int64)] = [(0, 0), (30, 1), (60, 2), (90, 3), (160, 4), (170, 5)]
        #expect(Self.delivered(LocationFilterSettings(distanceFilter: 50), steps) == [true, false, true, false, true, false])
    }

    @Test func significantChangeNeedsBothDistanceAndTime() {
        let settings = LocationFilterSettings(significantChange: .init(minimumDistance: 500, minimumInterval: 300))
        let steps: [(Double, Int64)] = [(0, 0), (600, 60), (600, 400), (700, 800), (1_300, 1_200)]
        #expect(Self.delivered(settings, steps) == [true, false, true, false, true])
    }

    @Test func noiseMatchesTheStatedAccuracyAndIsWrittenIntoTheSample() {
        var filter = LocationFilter(settings: LocationFilterSettings(noiseAccuracy: 20), seed: 9)
        var within = 0
        let count = 4_000
        for i in 0..<count {
            let outcome = filter.apply(
                device: 0, latitude: 25, longitude: 121, time: Timestamp(microseconds: Int64(i)), accuracy: nil)
            #expect(outcome.accuracy == 20)
            let error = Geodesic.distance(latitude1: 25, longitude1: 121, latitude2: outcome.latitude, longitude2: outcome.longitude)
            if error <= 20 { within += 1 }
        }
        // About 68 % of positions lie within the stated accuracy.
        #expect(abs(Double(within) / Double(count) - 0.68) < 0.03)
    }

    @Test func noiseIsTheSameForADeviceWhateverTheShardLayout() {
        var single = LocationFilter(settings: LocationFilterSettings(noiseAccuracy: 10), seed: 3, stride: 1)
        var sharded = LocationFilter(settings: LocationFilterSettings(noiseAccuracy: 10), seed: 3, stride: 4)
        for i in 0..<10 {
            let time = Timestamp(microseconds: Int64(i))
            let a = single.apply(device: 7, latitude: 25, longitude: 121, time: time, accuracy: nil)
            let b = sharded.apply(device: 7, latitude: 25, longitude: 121, time: time, accuracy: nil)
            #expect(a.latitude == b.latitude && a.longitude == b.longitude)
        }
    }
}
