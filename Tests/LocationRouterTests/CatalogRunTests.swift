import Foundation
import GeofenceKit
import TestSupport
import Testing
@testable import LocationRouter

/// Whole runs with a shared catalog: devices choosing their nearest regions, and coverage checked against an
/// independent run that monitors the whole catalog with no slot limit.
@Suite struct CatalogRunTests {
    /// 40 walkers for 5 minutes over 2 km, and a generated catalog of 400 circles of 50–200 m.
    static func configuration(
        strategy: SelectionStrategy, slots: Int, coverage: Bool = false, shards: Int = 2
    ) -> SimulationConfiguration {
        var walk = RandomWalkConfiguration(devices: 40, areaRadius: 2_000, duration: 300)
        walk.catalog = GeneratedCatalogConfiguration(count: 400, radius: 50...200)
        var settings = MonitorSettings.exact
        settings.slotLimit = slots
        var configuration = SimulationConfiguration(source: .randomWalk(walk), settings: settings, seed: 9, shards: shards)
        configuration.selection = SelectionSettings(strategy: strategy, refreshDistance: 200)
        configuration.coverage = coverage
        return configuration
    }

    static func key(_ event: GeofenceEvent) -> String {
        "\(event.device)/\(event.region)/\(event.kind)/\(event.time.microseconds)"
    }

    /// `configuration(strategy: .nearest, slots: 5, coverage: true)` under the iOS rules for `duration` seconds,
    /// saving and restoring state at `statePath`.
    static func iosCoverage(duration: Double, statePath: String?) async throws -> CoverageSummary {
        var configuration = configuration(strategy: .nearest, slots: 5, coverage: true)
        configuration.settings = MonitoringProfile.ios.settings
        configuration.settings.slotLimit = 5
        configuration.profile = "ios"
        guard case .randomWalk(var walk) = configuration.source else { throw CancellationError() }
        walk.duration = duration
        configuration.source = .randomWalk(walk)
        var simulation = Simulation(configuration: configuration, sink: nil)
        simulation.statePath = statePath
        return try #require(try await simulation.run().coverage)
    }

    @Test(arguments: [90.0, 150, 210])
    func coverageContinuesFromTheSnapshot(split: Double) async throws {
        // Restarted (the same walk, longer: its samples up to the snapshot are rejected as old), the unlimited
        // evaluation compares each device's first new sample with the catalog regions it was inside, and an event
        // can still catch a transition of the first run (iOS confirms a crossing seconds later), counted again by
        // the second as caught late: the two runs add up to one uninterrupted run, but for those. (Restarted
        // blank, the crossing at the restart was lost and such events counted as unmatched.)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let statePath = folder + "/coverage.ndjson"
        let whole = try await Self.iosCoverage(duration: 300, statePath: nil)
        let first = try await Self.iosCoverage(duration: split, statePath: statePath)
        let snapshot = try #require(try StateFile.read(statePath))
        let saved = snapshot.devices.compactMap(\.coverage)
        #expect(saved.count == snapshot.devices.count && saved.count == 40)
        #expect(saved.contains { !$0.inside.isEmpty })
        let carried = saved.reduce(0) { $0 + $1.open.count }
        let second = try await Self.iosCoverage(duration: 300, statePath: statePath)

        #expect(whole.transitions > 100 && whole.late > 0 && whole.missed > 0)
        #expect(carried > 0)
        let countedTwice = first.transitions + second.transitions - whole.transitions
        #expect(countedTwice >= 0 && countedTwice <= min(carried, second.late))
        #expect(first.caught + second.caught == whole.caught)
        #expect(first.late + second.late == whole.late)
        #expect(first.unmatched + second.unmatched == whole.unmatched)
    }

    @Test func coverageAgreesWithAnUnlimitedRunOfTheSameSamples() async throws {
        let (rotated, rotatedEvents) = try await Simulation(
            configuration: Self.configuration(strategy: .nearest, slots: 5, coverage: true), sink: nil
        ).runKeepingEvents()
        // The whole catalog registered by every device, with room for all of it: every transition is reported.
        let (_, unlimitedEvents) = try await Simulation(
            configuration: Self.configuration(strategy: .fileOrder, slots: 400), sink: nil
        ).runKeepingEvents()
        let truth = Set(unlimitedEvents.filter { $0.kind == .enter || $0.kind == .exit }.map(Self.key))
        let reported = rotatedEvents.filter { $0.kind == .enter || $0.kind == .exit }.map(Self.key)
        let coverage = try #require(rotated.coverage)
        #expect(coverage.transitions == truth.count)
        #expect(coverage.caught == reported.filter(truth.contains).count)
        #expect(coverage.late == 0)  // exact rules: a region either watched the crossing or did not
        #expect(coverage.unmatched == reported.count - coverage.caught)
        #expect(coverage.transitions > 100)
        #expect(coverage.missed > 0)
        #expect(coverage.ratio > 0.5 && coverage.ratio < 1)
        #expect(rotated.failures["tooManyRegions"] == 0)
        #expect(rotated.monitoredRegions == 40 * 5)
        let selection = try #require(rotated.selection)
        #expect(selection.strategy == .nearest)
        #expect(selection.summary.refreshes > 40)
        #expect(selection.summary.added == selection.summary.removed)
        #expect(selection.summary.swapsPerDeviceHour > 0)
        #expect(rotated.json.contains(#""coverage":{"transitions":\#(coverage.transitions),"caught":\#(coverage.caught)"#))
        #expect(rotated.json.contains(#""selection":{"strategy":"nearest","refreshes":"#))
    }

    @Test func theSameSeedGivesTheSameEventsWhateverTheShards() async throws {
        let one = CollectingSink(), two = CollectingSink()
        _ = try await Simulation(configuration: Self.configuration(strategy: .nearest, slots: 5, shards: 1), sink: one).run()
        _ = try await Simulation(configuration: Self.configuration(strategy: .nearest, slots: 5, shards: 2), sink: two).run()
        #expect(one.linesByDevice == two.linesByDevice)
        #expect(one.lines.count > 50)
        #expect(one.lines.contains { $0.contains(#""region":"catalog-"#) })
    }

    @Test func fileOrderStaysTheDefaultAndFailsPastTheLimit() async throws {
        let report = try await Simulation(configuration: Self.configuration(strategy: .fileOrder, slots: 20), sink: nil).run()
        #expect(report.failures["tooManyRegions"] == 40 * 380)
        #expect(report.selection == nil)
        #expect(report.coverage == nil)
        #expect(report.regions == 400)
        #expect(report.origin.regionsShared)  // every partition generates the whole catalog
    }

    @Test func aRegionFileSplitsIntoOwnRegionsAndTheCatalog() async throws {
        // Device 0 owns a far region; the others are a catalog of 30 circles around the walk's centre.
        var regions = [Region(
            id: "own", geometry: .circle(CircleGeometry(center: Coordinate(unchecked: -40, -60), radius: 10)),
            devices: ["device-0"])]
        for k in 0..<30 {
            let centre = Coordinate(unchecked: 25.033 + Double(k % 6) * 0.004, 121.5654 + Double(k / 6) * 0.004)
            regions.append(Region(id: "store-\(k)", geometry: .circle(CircleGeometry(center: centre, radius: 150))))
        }
        var configuration = Self.configuration(strategy: .nearest, slots: 3, coverage: true)
        configuration.regions = regions
        let (report, events) = try await Simulation(configuration: configuration, sink: nil).runKeepingEvents()
        #expect(report.failures["tooManyRegions"] == 0)
        #expect(report.monitoredRegions == 40 * 3)
        #expect(report.regions == 31)
        #expect(!events.contains { $0.region == 0 })  // the far own region never fires
        #expect((report.coverage?.transitions ?? 0) > 0)
    }
}
