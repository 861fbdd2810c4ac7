import Foundation
import GeofenceKit
import TestSupport
import Testing
@testable import LocationRouter
import GeofenceFormats

/// `--partition I/N`: N partitions of a run, simulated separately, produce exactly the whole run's events.
@Suite(.serialized) struct PartitionTests {
    @Test func partitionsParseAndRefuseWhatIsOutOfRange() {
        #expect(Partition(parsing: "3/8") == Partition(index: 3, count: 8))
        #expect(Partition(parsing: "0/1") == .whole)
        #expect(Partition(parsing: "65535/65536")?.count == 65_536)
        for bad in ["4/4", "-1/4", "1/0", "0/65537", "1", "1/2/3", "a/4", "/4", "1/", " 1/4", "+1/4"] {
            #expect(Partition(parsing: bad) == nil, "\(bad)")
        }
        #expect(Partition(index: 2, count: 3)?.description == "2/3")
    }

    @Test func generatedDevicesGoByIndexAndStreamDevicesByTheirIDsHash() throws {
        // FNV-1a 64 reference values.
        #expect(Partition.stableHash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Partition.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Partition.stableHash("foobar") == 0x8594_4171_f739_67e8)
        let third = try #require(Partition(index: 1, count: 3))
        #expect((0..<9).filter { third.owns(device: $0) } == [1, 4, 7])
        #expect(third.deviceCount(of: 8) == 3 && third.deviceCount(of: 1) == 0 && third.deviceCount(of: 2) == 1)
        #expect(third.owns(deviceID: "foobar") == (UInt64(0x8594_4171_f739_67e8) % 3 == 1))
        // Every id has exactly one owner.
        let owners = (0..<200).map { id in (0..<3).filter { Partition(index: $0, count: 3)!.owns(deviceID: "bus-\(id)") } }
        #expect(owners.allSatisfy { $0.count == 1 })
        #expect(Set(owners.map { $0[0] }) == [0, 1, 2])
    }

    /// Settings that use every seeded per-device draw: authorization mix, foreground sessions, dwell.
    static var richSettings: MonitorSettings {
        var settings = MonitoringProfile.ios.settings
        settings.authorization = AuthorizationMix(always: 0.5, whenInUse: 0.3, denied: 0.2, foregroundSeconds: 20)
        settings.dwellByDefault = true
        settings.loiteringDelay = 15
        return settings
    }

    static var noisy: LocationFilterSettings {
        var filters = LocationFilterSettings()
        filters.noiseAccuracy = 25
        filters.distanceFilter = 5
        return filters
    }

    /// The events of the whole run, and the events of each of `count` partitions run separately (with a
    /// different shard count, which must not matter either).
    static func runWholeAndPartitions(
        count: Int, _ make: () throws -> SimulationConfiguration
    ) async throws -> (whole: [String], parts: [[String]], reports: [RunReport]) {
        let sink = CollectingSink()
        let whole = try make()
        _ = try await Simulation(configuration: whole, sink: sink).run()
        var parts: [[String]] = []
        var reports: [RunReport] = []
        for index in 0..<count {
            var configuration = try make()
            configuration.partition = try #require(Partition(index: index, count: count))
            configuration.shards = 1 + index % 3
            let partSink = CollectingSink()
            reports.append(try await Simulation(configuration: configuration, sink: partSink).run())
            parts.append(partSink.lines)
        }
        return (sink.lines, parts, reports)
    }

    @Test func randomWalkPartitionsUniteIntoTheWholeRun() async throws {
        let walk = RandomWalkConfiguration(devices: 61, areaRadius: 2_000, duration: 120)
        let (whole, parts, reports) = try await Self.runWholeAndPartitions(count: 4) {
            SimulationConfiguration(
                source: .randomWalk(walk), settings: Self.richSettings, seed: 9, shards: 2, batchSize: 64,
                filters: Self.noisy)
        }
        #expect(whole.count > 100)
        #expect(parts.allSatisfy { !$0.isEmpty })
        #expect(parts.flatMap { $0 }.sorted() == whole.sorted())
        // Devices keep their names: partition 1 of 4 holds device-1, device-5, …
        let names = Set(parts[1].compactMap { $0.split(separator: "\"").dropFirst(3).first })
        #expect(names.allSatisfy { Int($0.dropFirst("device-".count))! % 4 == 1 })
        #expect(reports.map(\.devices).reduce(0, +) == 61)
        #expect(reports.map(\.devices) == [16, 15, 15, 15])
    }

    @Test func playbackPartitionsUniteIntoTheWholeRun() async throws {
        let route = try Trace.route("25.0330,121.5654;25.0400,121.5700;25.0450,121.5600;25.0330,121.5654")
        let playback = PlaybackConfiguration(devices: 23, speed: 15, stagger: 3, timeJitter: 7, positionJitter: 40)
        let (whole, parts, _) = try await Self.runWholeAndPartitions(count: 3) {
            SimulationConfiguration(
                source: .playback([route], playback), settings: Self.richSettings, seed: 4, shards: 2, batchSize: 50,
                filters: Self.noisy)
        }
        #expect(whole.count > 50)
        #expect(parts.flatMap { $0 }.sorted() == whole.sorted())
    }

    @Test func streamPartitionsUniteIntoTheWholeRunAndCountEveryLineOnce() async throws {
        var lines: [String] = []
        var rng = SplitMix64(seed: 3)
        for step in 0..<1_500 {
            let device = Int(rng.next() % 25)
            let latitude = 25.0478 + (rng.unit() - 0.5) * 0.01
            let longitude = 121.517 + (rng.unit() - 0.5) * 0.01
            lines.append(#"{"device":"bus-\#(device)","lat":\#(latitude),"lon":\#(longitude),"time":\#(1_795_248_000 + step)}"#)
            if step % 300 == 7 { lines.append("not json") }
            if step % 400 == 9 { lines.append(#"{"device":"bus-\#(device)","lat":25,"lon":121.5,"time":1795240000}"#) }
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try temporaryFile(lines.joined(separator: "\n") + "\n", in: folder)
        let regions = try GeoJSONRegionDecoder.decode(Array(SampleStreamTests.regionsGeoJSON.utf8))
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { close(descriptor) } }
        let (whole, parts, reports) = try await Self.runWholeAndPartitions(count: 3) {
            let descriptor = open(path, O_RDONLY)
            try #require(descriptor >= 0)
            descriptors.append(descriptor)
            return SimulationConfiguration(
                source: .samples(SampleInput(descriptor: descriptor, name: "samples.ndjson")), regions: regions,
                settings: Self.richSettings, seed: 8, shards: 2, batchSize: 40, filters: Self.noisy)
        }
        #expect(whole.count > 20)
        #expect(parts.flatMap { $0 }.sorted() == whole.sorted())
        // Each line is read, evaluated or rejected by exactly one partition; undecodable lines by the first.
        #expect(reports.map(\.samplesRead).reduce(0, +) == lines.count)
        #expect(reports[0].rejected["malformed"] == 5)
        #expect(reports.dropFirst().allSatisfy { ($0.rejected["malformed"] ?? 0) == 0 })
        #expect(reports.map { $0.rejected["outOfOrder"] ?? 0 }.reduce(0, +) == 4)
        #expect(reports.map(\.devices).reduce(0, +) == 25)
        #expect(reports.allSatisfy { $0.isBalanced })
    }
}
