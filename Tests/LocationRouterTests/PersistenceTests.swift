import Foundation
import GeofenceKit
import TestSupport
import Testing
@testable import LocationRouter
import GeofenceFormats

@Suite struct PersistenceTests {
    // MARK: The snapshot file

    static let snapshot = StateSnapshot(profile: "ios", devices: [
        .init(
            name: "bus \"17\"", time: 1_795_248_060_500_000, latitude: 25.0478, longitude: 121.5171,
            regions: [
                .init(id: "taipei-main", inside: true, pendingSince: nil, dwellDue: 1_795_248_360_500_000),
                .init(id: "r/2", inside: false, pendingSince: 1_795_248_050_000_000, dwellDue: nil),
            ],
            failed: ["r21"]),
        .init(name: "walker", time: 0, latitude: -33.9, longitude: 151.2, regions: [], failed: []),
        .init(
            name: "shopper", time: 1_795_248_070_000_000, latitude: 25.04, longitude: 121.56,
            regions: [.init(id: "catalog-7", inside: false)], failed: [],
            chosen: DeviceState.Choice(latitude: 25.0412345678, longitude: 121.5598765432, time: 1_795_248_010_000_000),
            coverage: .init(
                inside: ["catalog-7", "catalog-\"9\""],
                open: [.init(id: "catalog-7", kind: .enter, time: 1_795_248_065_000_000), .init(id: "x", kind: .exit, time: 1)])),
        .init(
            name: "idle", time: 1, latitude: 0, longitude: 0, regions: [], failed: [],
            coverage: .init(inside: [], open: [])),
    ])

    @Test func aSnapshotRoundTripsExactly() throws {
        // Without a seed and partition (as earlier versions wrote it), and with them.
        #expect(try StateSnapshot.decode(Self.snapshot.encoded()) == Self.snapshot)
        var run = Self.snapshot
        run.seed = .max
        run.partition = Partition(index: 2, count: 3)
        #expect(String(decoding: run.encoded(), as: UTF8.self).hasPrefix(
            #"{"format":"location-router-state","version":1,"profile":"ios","seed":18446744073709551615,"partition":"2/3","devices":4}"#))
        #expect(try StateSnapshot.decode(run.encoded()) == run)
    }

    @Test func aSnapshotReadBackKeepsItsLinesAndDecodesEachDeviceWhenAsked() throws {
        // Written by this version (read straight from their bytes) and laid out otherwise (read the general way):
        // the same devices, names and seqs, one at a time or all at once.
        var snapshot = Self.snapshot
        snapshot.devices[1].seq = 12
        let spaced = String(decoding: snapshot.encoded(), as: UTF8.self).replacingOccurrences(of: "\":", with: "\": ")
        for bytes in [snapshot.encoded(), Array(spaced.utf8)] {
            let read = try StateSnapshot.decode(bytes)
            guard case .lines(let lines) = read.saved else {
                Issue.record("a snapshot read back should keep its lines, not decoded devices")
                continue
            }
            #expect(lines.ranges.count == snapshot.devices.count)
            for (index, device) in snapshot.devices.enumerated() {
                #expect(read.saved[index] == device)
                #expect(read.saved.name(at: index) == device.name)
                #expect(read.saved.sequence(at: index) == device.seq)
            }
            #expect(read.devices == snapshot.devices)
            #expect(read == snapshot)
        }
    }

    @Test(arguments: [
        ("", "empty snapshot"),
        ("{\"format\":\"something-else\",\"version\":1}\n{\"end\":true,\"devices\":0}\n", "not a LocationRouter state snapshot"),
        ("{\"format\":\"location-router-state\",\"version\":99}\n{\"end\":true,\"devices\":0}\n", "version 99 is not supported"),
        ("garbage\u{0}\u{1}\n", "line 1"),
        ("{\"format\":\"location-router-state\",\"version\":1,\"seed\":-1}\n{\"end\":true,\"devices\":0}\n", "seed: must be a whole number"),
        ("{\"format\":\"location-router-state\",\"version\":1,\"partition\":\"3/3\"}\n{\"end\":true,\"devices\":0}\n", "partition: must be I/N"),
        (
            "{\"format\":\"location-router-state\",\"version\":1}\n{\"device\":\"d\",\"time\":1,\"lat\":0,\"lon\":0,"
                + "\"coverage\":{\"inside\":[],\"open\":[{\"id\":\"r\",\"kind\":\"dwell\",\"time\":1}]}}\n{\"end\":true,\"devices\":1}\n",
            "coverage.open[0].kind: must be \"enter\" or \"exit\""
        ),
    ])
    func corruptOrIncompatibleSnapshotsAreClearErrors(text: String, message: String) {
        do {
            _ = try StateSnapshot.decode(Array(text.utf8))
            Issue.record("decoded a bad snapshot")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func aSnapshotOfManyDevicesIsReadInOrderAndItsFirstBadLineIsTheOneReported() throws {
        // Device lines are read on every core in parts: the devices keep the file's order, and of two bad lines
        // the first is named, whichever part finished first.
        var devices: [StateSnapshot.Device] = []
        for index in 0..<5_000 {
            let latitude: Double = 25 + Double(index) * 1e-5
            let region = StateSnapshot.Device.Region(id: "r\(index % 7)", inside: index % 2 == 0)
            devices.append(
                StateSnapshot.Device(
                    name: "d\(index)", time: Int64(index), latitude: latitude, longitude: 121.5, regions: [region],
                    failed: [], seq: UInt64(index)))
        }
        let snapshot = StateSnapshot(profile: "exact", seed: 1, devices: devices)
        #expect(try StateSnapshot.decode(snapshot.encoded()) == snapshot)
        var lines = String(decoding: snapshot.encoded(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        lines[4_000] = #"{"device":"d3999","time":"late","lat":25,"lon":121.5}"#
        lines[3_000] = #"{"device":"d2999","time":1,"lat":95,"lon":121.5}"#
        do throws(InputError) {
            _ = try StateSnapshot.decode(Array(lines.joined(separator: "\n").utf8))
            Issue.record("decoded a snapshot with bad lines")
        } catch {
            #expect(error.line == 3_001, "\(error)")
        }
    }

    @Test func aTruncatedSnapshotIsAnErrorWhereverItIsCut() {
        let bytes = Self.snapshot.encoded()
        for cut in stride(from: 1, to: bytes.count - 1, by: 7) {
            #expect(throws: InputError.self, "cut at \(cut)") { try StateSnapshot.decode(Array(bytes[..<cut])) }
        }
    }

    @Test func generatedRegionNamesReadBackAsTheirIndices() {
        for perDevice in [1, 3, 20] {
            for index in [0, 1, 2, 19, 20, 123_456, Int32.max - 7] {
                let name = RegionNames.generated(perDevice: perDevice).name(of: index)
                #expect(StateTranslation.generatedRegion(named: name, perDevice: perDevice) == index, "\(name)")
            }
        }
        // Anything else is no region of the run (an index past Int32 included: it used to trap).
        for name in [
            "", "device-", "device-1", "device-1/", "device-1/r", "device-1/r20", "device-1/x2", "device-/r1",
            "device-+1/r1", "device-1/r-1", "device-1/r1/", "Device-1/r1", "device-1r1", "device-99999999999/r1",
            "device-2147483647/r1",
        ] {
            #expect(StateTranslation.generatedRegion(named: name, perDevice: 20) == nil, "\(name)")
        }
    }

    @Test func writingIsAtomicAndReadingAMissingFileMeansAFirstRun() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state.ndjson"
        #expect(try StateFile.read(path) == nil)
        try StateFile.write(Self.snapshot, to: path)
        #expect(try StateFile.read(path) == Self.snapshot)
        // Nothing but the file is left beside it (no temporary of the atomic write).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.ndjson"])
        try Data("{\"format\":\"location-router-state\"".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError.self) { try StateFile.read(path) }
    }

    @Test func aSnapshotOfSeveralRoundsIsWrittenWhole() throws {
        // The file is encoded in parts on every core, a round of parts while the round before is written: every
        // line must arrive whole and in order, across parts and rounds (the last one short).
        let count = StateSnapshot.linesPerPart * StateSnapshot.partsPerRound + StateSnapshot.linesPerPart + 7
        var devices: [StateSnapshot.Device] = []
        for index in 0..<count {
            let regions = (0..<3).map { StateSnapshot.Device.Region(id: "store-\(index)-\($0)", inside: ($0 + index) % 3 == 0) }
            let latitude: Double = 25 + Double(index) * 1e-5
            devices.append(
                StateSnapshot.Device(
                    name: "device-\(index)", time: Int64(index) * 1_000_000, latitude: latitude, longitude: 121.5,
                    regions: regions, failed: index % 10 == 0 ? ["store-failed-\(index)"] : [], seq: UInt64(index)))
        }
        let snapshot = StateSnapshot(profile: "exact", seed: 7, devices: devices)
        let bytes = snapshot.encoded()
        var expected = Array(#"{"format":"location-router-state","version":1,"profile":"exact","seed":7,"devices":\#(count)}"#.utf8)
        expected.append(UInt8(ascii: "\n"))
        #expect(Array(bytes.prefix(expected.count)) == expected)
        #expect(bytes.split(separator: UInt8(ascii: "\n")).count == count + 2)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state.ndjson"
        try StateFile.write(snapshot, to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        #expect(try StateFile.read(path) == snapshot)
    }

    // MARK: Restarting

    static func fixture(_ name: String) throws -> String {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/reference")).path
    }

    /// Runs `lines` of the reference samples through `settings`, saving and restoring state at `statePath`.
    static func run(
        _ lines: ArraySlice<Substring>, settings: MonitorSettings, profile: String, statePath: String?,
        snapshotInterval: Double = 0, clock: any RunClock = .continuous
    ) async throws -> [String] {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/part.ndjson"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let regions = try GeoJSONRegionDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: try fixture("regions.geojson")))))
        let configuration = SimulationConfiguration(
            source: .samples(SampleInput(descriptor: descriptor, name: "samples")), regions: regions, settings: settings,
            profile: profile, shards: 2)
        let sink = CollectingSink()
        var simulation = Simulation(configuration: configuration, sink: sink)
        simulation.statePath = statePath
        simulation.snapshotInterval = snapshotInterval
        simulation.clock = clock
        let report = try await simulation.run()
        #expect(report.dropped == 0)
        return sink.lines
    }

    static var dwelling: MonitorSettings {
        var settings = MonitorSettings.exact
        settings.dwellByDefault = true
        settings.loiteringDelay = 120
        return settings
    }

    @Test(arguments: [
        ("ios", MonitoringProfile.ios.settings, 1_500),
        ("exact+dwell", dwelling, 1_500),
        ("exact+dwell", dwelling, 700),
    ])
    func aRunStoppedAndRestartedFromItsSnapshotEqualsAnUninterruptedRun(profile: String, settings: MonitorSettings, split: Int) async throws {
        let samples = try String(contentsOfFile: try Self.fixture("samples.ndjson"), encoding: .utf8).split(separator: "\n")
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let statePath = folder + "/restart.ndjson"

        let whole = try await Self.run(samples[...], settings: settings, profile: profile, statePath: nil)
        let first = try await Self.run(samples[..<split], settings: settings, profile: profile, statePath: statePath)
        let snapshot = try #require(try StateFile.read(statePath))
        #expect(!snapshot.devices.isEmpty)
        let second = try await Self.run(samples[split...], settings: settings, profile: profile, statePath: statePath)

        #expect(whole.count > 50, "the input must produce events for the comparison to mean anything")
        // No duplicate, none missing, and each device's events in the same order.
        #expect(CollectingSink.group(first + second) == CollectingSink.group(whole))
    }

    @Test func aRunWithPeriodicSnapshotsEndsWithTheStateItsShardsSent() async throws {
        // With periodic snapshots the final snapshot is built from the states the shards sent when their input
        // ended; a restart from it must still equal one uninterrupted run.
        let samples = try String(contentsOfFile: try Self.fixture("samples.ndjson"), encoding: .utf8).split(separator: "\n")
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let statePath = folder + "/final.ndjson"
        let settings = MonitoringProfile.ios.settings
        let whole = try await Self.run(samples[...], settings: settings, profile: "ios", statePath: nil)
        // The run's clock jumps to each snapshot's moment as soon as the snapshot task sleeps: snapshots follow
        // each other as fast as the run takes them, without waiting for real time.
        let clock = ManualClock()
        let first = try await clock.advancingToEachDeadline {
            try await Self.run(samples[..<1_500], settings: settings, profile: "ios", statePath: statePath, snapshotInterval: 60, clock: clock)
        }
        let second = try await Self.run(samples[1_500...], settings: settings, profile: "ios", statePath: statePath)
        #expect(CollectingSink.group(first + second) == CollectingSink.group(whole))
    }

    @Test func aDeviceSilentForAWholeRunKeepsItsStateForTheNext() async throws {
        // Three runs from one snapshot file: the second sees only visnjan, the third korita again (and
        // trackpointonly). The snapshot carries korita and cerknicko through the second run as they were.
        let samples = try String(contentsOfFile: try Self.fixture("samples.ndjson"), encoding: .utf8).split(separator: "\n")
        let parts = [samples[..<500], samples[809..<1_222], ArraySlice(samples[500..<809] + samples[1_222...])]
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let statePath = folder + "/silent.ndjson"
        let settings = MonitoringProfile.ios.settings
        let whole = try await Self.run(ArraySlice(parts.joined()), settings: settings, profile: "ios", statePath: nil)
        var restarted: [String] = []
        for part in parts {
            restarted += try await Self.run(part, settings: settings, profile: "ios", statePath: statePath)
            #expect(try #require(try StateFile.read(statePath)).devices.contains { $0.name == "korita" })
        }
        #expect(whole.contains { $0.contains(#""device":"korita""#) && $0.contains(#""seq":"#) })
        #expect(CollectingSink.group(restarted) == CollectingSink.group(whole))
    }

    @Test(arguments: [
        StateSnapshot(profile: "android", devices: []),
        StateSnapshot(profile: "exact", seed: 7, devices: []),
        StateSnapshot(profile: "exact", seed: 42, partition: Partition(index: 1, count: 2), devices: []),
    ])
    func aSnapshotOfAnotherProfileSeedOrPartitionIsRefused(snapshot: StateSnapshot) async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let statePath = folder + "/other.ndjson"
        try StateFile.write(snapshot, to: statePath)
        let samples = try String(contentsOfFile: try Self.fixture("samples.ndjson"), encoding: .utf8).split(separator: "\n")
        // The run's seed is the default, 42, and it is the whole run.
        let field = snapshot.profile != "exact" ? "profile" : snapshot.partition == nil ? "seed" : "partition"
        await #expect {
            _ = try await Self.run(samples[..<10], settings: .exact, profile: "exact", statePath: statePath)
        } throws: { error in
            (error as? InputError)?.field == field
        }
    }

    /// The check of earlier versions (profile only) still refuses another profile, and takes a snapshot of any seed
    /// and partition.
    @Test func theProfileOnlyCheckKeepsItsMeaning() throws {
        let snapshot = StateSnapshot(profile: "ios", seed: 7, partition: Partition(index: 1, count: 2), devices: [])
        try Simulation.check(snapshot, profile: "ios", path: "state.ndjson")
        #expect { try Simulation.check(snapshot, profile: "exact", path: "state.ndjson") } throws: { error in
            (error as? InputError)?.field == "profile"
        }
    }
}
