import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter
import GeofenceFormats

/// What a run records for its page: time series that add up to the report's totals, a bounded seeded sample of
/// tracks, and region fire counts.
@Suite struct RunRecordingTests {
    private func run(devices: Int = 300, duration: Double = 180, shards: Int = 2, seed: UInt64 = 7) async throws -> RunReport {
        let walk = RandomWalkConfiguration(devices: devices, duration: duration, regions: .init(perDevice: 5))
        let configuration = SimulationConfiguration(source: .randomWalk(walk), seed: seed, shards: shards)
        return try await Simulation(configuration: configuration, sink: nil).run()
    }

    @Test func timeSeriesAddUpToTheReportTotals() async throws {
        let report = try await run()
        let recording = try #require(report.recording)
        for series in [recording.wallClock, recording.simulated] {
            #expect(series.buckets.values.reduce(0) { $0 + $1.updates } == report.updates)
            for kind in EventKind.allCases {
                #expect(series.buckets.values.reduce(0) { $0 + $1.events[kind.rawValue] } == report.events[kind.description])
            }
            #expect(series.buckets.values.reduce(0) { $0 + Int($1.latency.count) } == report.eventsEmitted)
        }
        // 180 simulated seconds from a whole minute: minutes 0, 1, 2 and the last sample's minute 3.
        #expect(recording.simulated.width == 60_000_000)
        #expect(recording.simulated.buckets.count == 4)
        #expect(recording.latency.count == UInt64(report.eventsEmitted))
    }

    @Test func theSampleIsSeededBoundedAndIndependentOfSharding() async throws {
        let one = try await run(devices: 500, shards: 1)
        let three = try await run(devices: 500, shards: 3)
        let other = try await run(devices: 500, shards: 1, seed: 8)
        let tracks = try #require(one.recording?.map.tracks)
        #expect(tracks.count == 200)
        #expect(tracks.map(\.device) == three.recording?.map.tracks.map(\.device))
        #expect(tracks.map(\.device) != other.recording?.map.tracks.map(\.device))
        for track in tracks {
            #expect(track.latitudes.count <= 120 && track.latitudes.count >= 60)
            #expect(track.seconds.first == 0 || track.seconds.first.map { $0 >= 0 } == true)
            #expect(track.seconds == track.seconds.sorted())
        }
        // Generated regions of the first sampled devices, each with its fire count.
        let map = try #require(one.recording?.map)
        #expect(map.regionsSource == "sampledDevices")
        #expect(map.regions.count == min(RunMap.generatedRegionLimit, 200 * 5))
        #expect(map.regions.allSatisfy { $0.fired != nil })
        #expect(map.regionsTotal == 500 * 5)
    }

    @Test func regionFileRegionsCarryHowOftenTheyFired() async throws {
        let center = try Coordinate(latitude: 25.033, longitude: 121.5654)
        let regions = (0..<30).map { i in
            Region(
                id: "zone-\(i)",
                geometry: .circle(CircleGeometry(center: Coordinate(unchecked: center.latitude + Double(i % 6) * 0.01 - 0.03, center.longitude + Double(i / 6) * 0.01 - 0.02), radius: 600)))
        }
        let walk = RandomWalkConfiguration(devices: 200, duration: 300)
        let configuration = SimulationConfiguration(source: .randomWalk(walk), regions: regions, seed: 3, shards: 2)
        let report = try await Simulation(configuration: configuration, sink: nil).run()
        let map = try #require(report.recording?.map)
        #expect(map.regionsSource == "file")
        #expect(map.regions.map(\.id) == regions.map(\.id))
        let fired = map.regions.compactMap(\.fired).reduce(0, +)
        #expect(fired == (report.events["enter"] ?? 0) + (report.events["exit"] ?? 0) + (report.events["dwell"] ?? 0))
        #expect(fired > 0)
    }

    @Test func generatedRegionsOfSampledDevicesCountEveryFiring() async throws {
        let walk = RandomWalkConfiguration(devices: 300, duration: 300, regions: .init(perDevice: 3))
        let configuration = SimulationConfiguration(source: .randomWalk(walk), seed: 5, shards: 2)
        let sink = CollectingSink()
        let report = try await Simulation(configuration: configuration, sink: sink).run()
        var fires: [String: Int] = [:]
        for line in sink.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if ["enter", "exit", "dwell"].contains(object["event"] as? String) {
                fires[object["region"] as? String ?? "", default: 0] += 1
            }
        }
        let map = try #require(report.recording?.map)
        #expect(map.regions.count == 200 * 3)
        for region in map.regions { #expect(region.fired == fires[region.id, default: 0], "\(region.id)") }
        #expect(map.regions.contains { ($0.fired ?? 0) > 0 })
    }

    /// A generated catalog gives no device regions of its own: the map draws the catalog regions the sampled devices
    /// fired, each with how often they fired it.
    @Test func aGeneratedCatalogsMapDrawsTheRegionsTheSampledDevicesFired() async throws {
        let configuration = CatalogRunTests.configuration(strategy: .nearest, slots: 5)
        let sink = CollectingSink()
        let report = try await Simulation(configuration: configuration, sink: sink).run()
        let map = try #require(report.recording?.map)
        let sampled = Set(map.tracks.map(\.device))
        #expect(sampled.count == 40)
        var fires: [String: Int] = [:]
        for line in sink.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if ["enter", "exit", "dwell"].contains(object["event"] as? String), sampled.contains(object["device"] as? String ?? "") {
                fires[object["region"] as? String ?? "", default: 0] += 1
            }
        }
        #expect(map.regionsSource == "sampledDevicesCatalog")
        #expect(map.regionsTotal == 400)
        #expect(!fires.isEmpty && fires.count <= RunMap.generatedRegionLimit)
        #expect(Dictionary(uniqueKeysWithValues: map.regions.map { ($0.id, $0.fired ?? 0) }) == fires)
    }

    @Test func timeSeriesCoarsenInsteadOfGrowing() {
        var series = TimeSeries(width: 10, limit: 8)
        for position in stride(from: Int64(0), to: 1_000, by: 5) { series.addUpdates(1, at: position) }
        #expect(series.buckets.count <= 8)
        #expect(series.width >= 160)
        #expect(series.buckets.values.reduce(0) { $0 + $1.updates } == 200)
        var fine = TimeSeries(width: 10, limit: 8)
        fine.addUpdates(3, at: -15)
        fine.addUpdates(4, at: 5)
        #expect(fine.key(of: -15) == -2)
        series.merge(fine)
        #expect(series.buckets.values.reduce(0) { $0 + $1.updates } == 207)
        #expect(series.buckets.count <= 8)
    }

    @Test func trackSamplerThinsLongTracksAndKeepsTheSmallestHashes() {
        var sampler = TrackSampler(seed: 1, capacity: 3, pointsPerTrack: 10)
        var batch = LocationBatch()
        for step in 0..<1_000 {
            for device in Int32(0)..<20 {
                batch.append(device: device, latitude: 25, longitude: 121, time: Timestamp(seconds: Double(step)))
            }
        }
        sampler.record(batch)
        let expected = (Int32(0)..<20).sorted { TrackSampler.hash(device: $0, seed: 1) < TrackSampler.hash(device: $1, seed: 1) }
        #expect(sampler.sortedTracks.map(\.device) == expected.prefix(3).sorted())
        for track in sampler.sortedTracks {
            #expect(track.times.count <= 10 && track.times.count >= 5)
            #expect(track.times.first == 0)
            #expect((track.times.last ?? 0) >= 800_000_000)
        }
    }

    @Test func coarseHistogramQuantilesAreWithinTheirBucket() {
        var histogram = CoarseLatencyHistogram()
        for value in 1...10_000 { histogram.record(UInt64(value) * 1_000) }
        for (fraction, exact) in [(0.5, 5_000_000.0), (0.99, 9_900_000.0)] {
            let estimate = Double(histogram.quantile(fraction))
            #expect(abs(estimate - exact) / exact < 0.13)
        }
        #expect(histogram.buckets.reduce(0) { $0 + $1.count } == 10_000)
        #expect(histogram.buckets.allSatisfy { $0.lower < $0.upper })
    }

    @Test func theJSONReportCarriesThePageKeys() async throws {
        let report = try await run(devices: 100, duration: 60)
        let json = try JSONParser.parse(report.json)
        let timeline = try #require(json["timeline"])
        let wall = try #require(timeline["wallClock"])
        let count = wall["offsetSeconds"]?.items.count ?? 0
        #expect(count > 0)
        for key in ["updates", "latencyP50Ms", "latencyP99Ms", "backPressureWaits"] { #expect(wall[key]?.items.count == count) }
        #expect(timeline["simulated"]?["start"]?.stringValue == "2026-11-21T08:00:00Z")
        #expect(json["map"]?["tracks"]?.items.count == 100)
        #expect(json["latencyHistogram"]?["counts"]?.items.isEmpty == false)
        // The existing keys keep their place at the start.
        if case .object(let members) = json.kind { #expect(members.first?.key == "devices") }
    }
}
