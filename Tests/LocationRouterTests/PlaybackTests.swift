import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

@Suite struct PlaybackTests {
    static let route = Trace(name: "r", segments: [{
        var segment = Trace.Segment(playsRecordedTimes: false)
        segment.append(latitude: 25.0478, longitude: 121.517, time: nil)
        segment.append(latitude: 25.0340, longitude: 121.5645, time: nil)
        return segment
    }()])
    static let track = Trace(name: "t", segments: [{
        var segment = Trace.Segment(playsRecordedTimes: true)
        for i in 0..<30 {
            segment.append(latitude: 45 + Double(i) * 1e-4, longitude: 13, time: 1_000_000_000 + Int64(i) * 2_000_000)
        }
        return segment
    }()])

    /// All samples of a playback, by device, produced by `shards` lanes.
    static func samples(_ plan: PlaybackPlan, shards: Int, capacity: Int = 64) -> [Int32: [(Double, Double, Int64)]] {
        var byDevice: [Int32: [(Double, Double, Int64)]] = [:]
        for shard in 0..<shards {
            var lane = PlaybackLane(plan: plan, first: shard, stride: shards)
            while !lane.isFinished {
                var batch = LocationBatch(capacity: capacity)
                _ = lane.fill(&batch, capacity: capacity)
                for i in 0..<batch.count {
                    byDevice[batch.devices[i], default: []].append((batch.latitudes[i], batch.longitudes[i], batch.times[i]))
                }
            }
        }
        return byDevice
    }

    @Test func devicesAreAssignedTracesRoundRobinAndStaggered() {
        let configuration = PlaybackConfiguration(devices: 6, speed: 20, interval: 1, stagger: 5)
        let plan = PlaybackPlan(traces: [Self.route, Self.track], configuration: configuration, seed: 1)
        let samples = Self.samples(plan, shards: 2)
        #expect(samples.count == 6)
        let start = configuration.start.microseconds
        // Devices 0, 2, 4 play the route, 1, 3, 5 the track; the k-th device of a trace starts k × 5 s later.
        for device: Int32 in 0..<6 {
            let first = samples[device]?.first
            #expect(first?.2 == start + Int64(device / 2) * 5_000_000)
            #expect(first?.0 == (device % 2 == 0 ? 25.0478 : 45))
        }
        // The track plays its own times: one sample every 2 s, 30 samples.
        #expect(samples[1]?.count == 30)
        #expect(samples[1].map { zip($0, $0.dropFirst()).allSatisfy { $1.2 - $0.2 == 2_000_000 } } == true)
    }

    @Test func theSameSeedGivesTheSameTrafficWhateverTheShardsAndBatches() {
        let configuration = PlaybackConfiguration(devices: 9, speed: 12, interval: 2, timeJitter: 30, positionJitter: 50)
        let plan = PlaybackPlan(traces: [Self.route, Self.track], configuration: configuration, seed: 5)
        let one = Self.samples(plan, shards: 1, capacity: 1000)
        let three = Self.samples(plan, shards: 3, capacity: 7)
        #expect(one.count == 9)
        for (device, samples) in one {
            let other = three[device] ?? []
            #expect(samples.count == other.count)
            #expect(zip(samples, other).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 })
        }
        // Jitter moves devices apart: the route's devices do not all start at the same place.
        #expect(Set([0, 2, 4, 6, 8].compactMap { one[Int32($0)]?.first?.0 }).count > 1)
    }

    @Test func eachDevicesSamplesAreInTimeOrder() {
        let plan = PlaybackPlan(traces: [Self.route, Self.track], configuration: PlaybackConfiguration(devices: 5, timeJitter: 9), seed: 2)
        for samples in Self.samples(plan, shards: 2).values {
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.2 <= $1.2 })
        }
    }

    @Test func aPlaybackRunEvaluatesEverySampleAndFiltersAreCounted() async throws {
        var configuration = SimulationConfiguration(
            source: .playback([Self.route], PlaybackConfiguration(devices: 20, speed: 15)), seed: 3, shards: 2)
        configuration.filters = LocationFilterSettings(distanceFilter: 100)
        let sink = CollectingSink()
        let report = try await Simulation(configuration: configuration, sink: sink).run()
        #expect(report.devices == 20)
        #expect(report.filtered > 0)
        #expect(report.updates == report.samples)
        #expect(report.dropped == 0)
        #expect(sink.lines.count == report.eventsEmitted)
        let unfiltered = try await Simulation(
            configuration: SimulationConfiguration(
                source: .playback([Self.route], PlaybackConfiguration(devices: 20, speed: 15)), seed: 3, shards: 2),
            sink: nil
        ).run()
        #expect(unfiltered.filtered == 0)
        #expect(report.updates + report.filtered == unfiltered.updates)
        #expect(report.samplesRead == unfiltered.updates)
        #expect(report.isBalanced && unfiltered.isBalanced)
    }
}
