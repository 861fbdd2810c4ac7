import Foundation
import GeofenceKit
import TestSupport
import Testing
@testable import LocationRouter
import GeofenceFormats

/// A sample stream's events are each device's own, in its time order, whatever the arrival skew between devices
/// and the shard count; a paced stream takes its simulated time.
@Suite struct StreamOrderingTests {
    /// 300 devices that each enter the station at 08:00:10, dwell (60 s loitering delay) only when they stay,
    /// and leave at a device-dependent time. Half stay past the delay, half leave before it.
    static func lines(skew: (Int) -> Int) -> [(arrival: Int, line: String)] {
        var lines: [(Int, String)] = []
        for d in 0..<300 {
            let leave = d % 2 == 0 ? 40 : 100  // seconds after 08:00:00
            let track = [(0, 25.0600), (10, 25.0478), (leave, 25.0600), (leave + 200, 25.0610)]
            for (t, lat) in track {
                let time = 1_795_248_000 + t
                lines.append((t + skew(d), #"{"device":"d\#(d)","lat":\#(lat),"lon":121.517,"time":\#(time)}"#))
            }
        }
        return lines
    }

    static func run(
        _ text: String, shards: Int, pace: Pace = .max, clock: any RunClock = .continuous
    ) async throws -> [String: [String]] {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try temporaryFile(text, in: folder)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let regions = try GeoJSONRegionDecoder.decode(Array(SampleStreamTests.regionsGeoJSON.utf8))
        var settings = MonitorSettings.exact
        settings.dwellByDefault = true
        settings.loiteringDelay = 60
        let configuration = SimulationConfiguration(
            source: .samples(SampleInput(descriptor: descriptor, name: "skewed")), regions: regions, settings: settings,
            shards: shards, batchSize: 16, pace: pace)
        let sink = CollectingSink()
        var simulation = Simulation(configuration: configuration, sink: sink)
        simulation.clock = clock
        _ = try await simulation.run()
        return sink.linesByDevice
    }

    @Test func skewedArrivalsGiveTheEventsOfATimeOrderedStreamAtEveryShardCount() async throws {
        let inOrder = Self.lines { _ in 0 }.sorted { $0.arrival < $1.arrival }.map(\.line).joined(separator: "\n")
        // Devices run 0–90 s apart in the stream: a late device's lines arrive long after an early one's, many
        // small batches later (a live stream hands lines over a few at a time).
        let skewed = Self.lines { d in (d * 37) % 91 }.sorted { $0.arrival < $1.arrival }.map(\.line).joined(separator: "\n")
        let expected = try await Self.run(inOrder, shards: 1)
        let dwells = expected.values.joined().filter { $0.contains("\"dwell\"") }.count
        #expect(dwells == 150, "only the devices that stay past the delay dwell")
        for shards in [1, 2, 4] {
            let events = try await Self.run(skewed, shards: shards)
            let differing = expected.keys.filter { events[$0] != expected[$0] }.sorted()
            #expect(events.count == expected.count && differing.isEmpty, "shards \(shards): \(differing.prefix(5)) differ")
            for (device, lines) in events {
                let times = lines.map { $0.components(separatedBy: "\"time\":\"")[1].prefix(20) }
                #expect(times == times.sorted(), "\(device) in time order")
            }
        }
    }

    @Test func aPacedStreamTakesItsSimulatedDuration() async throws {
        // Two samples 2 simulated seconds apart at 4× take half a second of the run's clock: the run waits for
        // the clock (which jumps to each deadline the run sleeps until) and ends the moment the second is due.
        let text = """
            {"device":"a","lat":25.06,"lon":121.517,"time":1795248000}
            {"device":"a","lat":25.0478,"lon":121.517,"time":1795248002}
            """
        let clock = ManualClock()
        let events = try await clock.advancingToEachDeadline { try await Self.run(text, shards: 1, pace: .factor(4), clock: clock) }
        #expect(clock.now == .milliseconds(500))
        #expect(clock.requestedDeadlines.allSatisfy { $0 <= .milliseconds(500) }, "never slept past the sample's moment")
        #expect(events["a"]?.count == 1)
    }
}
