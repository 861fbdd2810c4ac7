import GeofenceKit
import Testing
@testable import LocationRouter

/// Seeded stops of the random walk (`source.stops`): devices stand still for their share of the time, and the
/// visit detector finds those stops.
@Suite struct RandomWalkStopsTests {
    /// Every device's samples in time order: (seconds, latitude, longitude).
    static func walk(_ stops: RandomWalkStops?, devices: Int = 40, duration: Double = 7_200, seed: UInt64 = 5)
        -> [Int32: [(Int64, Double, Double)]]
    {
        var configuration = RandomWalkConfiguration(devices: devices, speed: 5...15, duration: duration)
        configuration.stops = stops
        let plan = RandomWalkPlan(configuration: configuration, seed: seed)
        var lane = RandomWalkLane(plan: plan, first: 0, stride: 1, stepsPerVisit: 16)
        var byDevice: [Int32: [(Int64, Double, Double)]] = [:]
        while true {
            var batch = LocationBatch(capacity: 4_096)
            guard lane.fill(&batch, capacity: 4_096), !batch.isEmpty else { break }
            for i in 0..<batch.count {
                byDevice[batch.devices[i], default: []].append(
                    (batch.times[i] / 1_000_000, batch.latitudes[i], batch.longitudes[i]))
            }
        }
        return byDevice
    }

    /// The share of steps in which devices did not move.
    static func stoppedShare(_ walks: [Int32: [(Int64, Double, Double)]]) -> Double {
        var steps = 0, still = 0
        for samples in walks.values {
            for (previous, next) in zip(samples, samples.dropFirst()) {
                steps += 1
                if previous.1 == next.1 && previous.2 == next.2 { still += 1 }
            }
        }
        return Double(still) / Double(max(steps, 1))
    }

    @Test func devicesStandStillForTheirShareOfTheTime() {
        #expect(Self.stoppedShare(Self.walk(nil)) == 0)
        let share = Self.stoppedShare(Self.walk(RandomWalkStops(share: 0.4, meanLength: 600)))
        #expect(abs(share - 0.4) < 0.08, "stopped \(share)")
    }

    @Test func theSameSeedGivesTheSameStops() {
        let stops = RandomWalkStops(share: 0.3, meanLength: 300)
        let a = Self.walk(stops, devices: 5, duration: 1_800), b = Self.walk(stops, devices: 5, duration: 1_800)
        #expect(a.keys.sorted() == b.keys.sorted())
        for device in a.keys { #expect(a[device]?.map(\.1) == b[device]?.map(\.1)) }
    }

    @Test func visitsAreFoundAtTheSeededStops() {
        var settings = MonitorSettings.exact
        settings.visits = VisitSettings(radius: 100, minimumStay: 300)
        let walks = Self.walk(RandomWalkStops(share: 0.5, meanLength: 900), devices: 20)
        var state = MonitorState(settings: settings) { _ in [] }
        var events: [GeofenceEvent] = []
        var longStops = 0
        for (device, samples) in walks {
            var stillSince: Int64?
            for (index, sample) in samples.enumerated() {
                _ = state.evaluate(
                    device: device, latitude: sample.1, longitude: sample.2, time: Timestamp(seconds: Double(sample.0)),
                    into: &events)
                let still = index > 0 && samples[index - 1].1 == sample.1 && samples[index - 1].2 == sample.2
                if still, stillSince == nil { stillSince = samples[index - 1].0 }
                if !still, let since = stillSince {
                    if sample.0 - since > 400 { longStops += 1 }
                    stillSince = nil
                }
            }
        }
        let arrivals = events.filter { $0.visit == .arrival }.count
        let departures = events.filter { $0.visit == .departure }.count
        #expect(longStops > 10)
        // Every stop of 400 s or more ends in a departure (stops still going at the end have arrived only).
        #expect(departures >= longStops)
        #expect(arrivals >= departures && arrivals <= departures + walks.count)
    }
}
