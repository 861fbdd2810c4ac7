import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

@Suite(.serialized) struct ReportMergeTests {
    @Test func histogramBucketsRoundTripAndMergedPercentilesEqualOneHistogramOfAll() throws {
        var rng = SplitMix64(seed: 11)
        var parts = Array(repeating: LatencyHistogram(), count: 4)
        var all = LatencyHistogram()
        for i in 0..<20_000 {
            let value = UInt64(1_000 + Double(rng.next() % 1_000_000) * (1 + rng.unit() * Double(i % 7)))
            parts[i % 4].record(value)
            all.record(value)
        }
        let rebuilt = try parts.map { part in
            try #require(LatencyHistogram(buckets: part.buckets, minimum: part.minimum, maximum: part.maximum))
        }
        #expect(rebuilt == parts)
        let merged = rebuilt.reduce(into: LatencyHistogram()) { $0.merge($1) }
        #expect(merged == all)
        for q in [0.5, 0.9, 0.99, 0.999, 1] { #expect(merged.quantile(q) == all.quantile(q)) }
        // A bucket that is not one of the layout's, or extremes outside the buckets, are refused.
        #expect(LatencyHistogram(buckets: [(1_000, 3, 1)], minimum: 1_000, maximum: 1_000) == nil)
        #expect(LatencyHistogram(buckets: [(1_000, 4, 1)], minimum: 999, maximum: 1_000) == nil)
        #expect(LatencyHistogram(buckets: [(1_000, 4, 2)], minimum: 1_001, maximum: 1_003)?.count == 2)
    }

    @Test func wallTimeIsTheUnionOfTheWindows() {
        #expect(ReportMerge.unionLength([(0, 10), (5, 12), (20, 21)]) == 13)
        #expect(ReportMerge.unionLength([(3, 4)]) == 1)
        #expect(ReportMerge.unionLength([(0, 10), (2, 3)]) == 10)
        #expect(ReportMerge.unionLength([]) == 0)
    }

    /// The reports of `count` partitions of a random walk, written as JSON and read back, and the whole run's.
    static func partitionReports(count: Int, seed: UInt64 = 5) async throws -> (whole: RunReport, parts: [RunReport]) {
        let walk = RandomWalkConfiguration(devices: 40, areaRadius: 2_000, duration: 60)
        var configuration = SimulationConfiguration(
            source: .randomWalk(walk), settings: PartitionTests.richSettings, seed: seed, shards: 2)
        let whole = try await Simulation(configuration: configuration, sink: nil).run()
        var parts: [RunReport] = []
        for index in 0..<count {
            configuration.partition = try #require(Partition(index: index, count: count))
            var report = try await Simulation(configuration: configuration, sink: nil).run()
            report.origin.configuration = "c0ffee"
            parts.append(try RunReport(json: Array(report.json.utf8)))
        }
        return (whole, parts)
    }

    @Test func mergedCountsEqualTheWholeRunsAndTheReportReadsBack() async throws {
        let (whole, parts) = try await Self.partitionReports(count: 3)
        let merged = try ReportMerge.merge(parts.enumerated().map { ("r\($0.offset).json", $0.element) })
        #expect(merged.devices == whole.devices && merged.devices == 40)
        #expect(merged.updates == whole.updates && merged.samplesRead == whole.samplesRead)
        #expect(merged.events == whole.events && merged.eventsEmitted == whole.eventsEmitted)
        #expect(merged.failures == whole.failures && merged.suppressed == whole.suppressed)
        #expect(merged.regions == whole.regions && merged.monitoredRegions == whole.monitoredRegions)
        #expect(merged.simulatedSeconds == whole.simulatedSeconds)
        #expect(merged.latency.count == UInt64(whole.eventsEmitted))
        #expect(merged.isBalanced)
        let expected = parts.reduce(into: LatencyHistogram()) { $0.merge($1.latency) }
        #expect(merged.latency == expected)
        #expect(merged.origin.merged == .init(reports: 3, partitions: [0, 1, 2], partitionCount: 3, missing: []))
        let start = parts.map(\.origin.wallStart).min()!
        let end = parts.map(\.origin.wallEnd).max()!
        #expect(merged.wallSeconds <= end - start + 1e-9 && merged.wallSeconds > 0)
        #expect(abs(merged.updatesPerSecond - Double(merged.updates) / merged.wallSeconds) < 1e-6)
        // The merged report is a run report plus `merged`, and reads back.
        let json = merged.json
        #expect(json.contains(#""merged":{"reports":3,"partitionCount":3,"partitions":[0,1,2],"missing":[]}"#))
        let again = try RunReport(json: Array(json.utf8))
        #expect(again.updates == merged.updates && again.latency == merged.latency)
    }

    @Test func reportsThatAreNotPartitionsOfOneRunAreRefused() async throws {
        let (_, parts) = try await Self.partitionReports(count: 3)
        let named = parts.enumerated().map { ("r\($0.offset).json", $0.element) }
        func refusal(_ reports: [(String, RunReport)], allowingMissing: Bool = false) -> String? {
            do {
                _ = try ReportMerge.merge(reports.map { (name: $0.0, report: $0.1) }, allowingMissing: allowingMissing)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(refusal([named[0], named[2]])?.contains("1 of 3 partitions missing: 1") == true)
        #expect(refusal([named[0], named[1], named[1]])?.contains("partition 1/3 appears twice") == true)
        var otherSeed = named[2]
        otherSeed.1.seed = 6
        #expect(refusal([named[0], named[1], otherSeed])?.contains("different seeds") == true)
        var otherConfiguration = named[2]
        otherConfiguration.1.origin.configuration = "beef"
        #expect(refusal([named[0], named[1], otherConfiguration])?.contains("different configurations") == true)
        // Another profile changes the fingerprint too: the profile is named.
        var otherProfile = otherConfiguration
        otherProfile.1.profile = "android"
        #expect(refusal([named[0], named[1], otherProfile])?.contains("different profiles (android and ") == true)
        #expect(refusal([]) == "no report to merge")
        let partial = try ReportMerge.merge([named[0], named[2]].map { (name: $0.0, report: $0.1) }, allowingMissing: true)
        #expect(partial.origin.merged?.missing == [1])
        #expect(partial.updates == parts[0].updates + parts[2].updates)
    }

    /// `selection`, `coverage` and `delivery` of partitions add up to the whole run's, read back from JSON.
    @Test func selectionCoverageAndDeliveryAreMerged() async throws {
        var configuration = CatalogRunTests.configuration(strategy: .nearest, slots: 5, coverage: true)
        configuration.settings.delivery = DeliveryDelay(.lognormal(median: 20, p95: 90))
        let whole = try await Simulation(configuration: configuration, sink: nil).run()
        var parts: [(name: String, report: RunReport)] = []
        for index in 0..<3 {
            configuration.partition = try #require(Partition(index: index, count: 3))
            var report = try await Simulation(configuration: configuration, sink: nil).run()
            report.origin.configuration = "c0ffee"
            parts.append(("r\(index).json", try RunReport(json: Array(report.json.utf8))))
        }
        let merged = try ReportMerge.merge(parts)
        let selection = try #require(merged.selection), wholeSelection = try #require(whole.selection)
        #expect(selection.strategy == .nearest)
        #expect(selection.summary.refreshes == wholeSelection.summary.refreshes && selection.summary.refreshes > 0)
        #expect(selection.summary.added == wholeSelection.summary.added)
        #expect(selection.summary.removed == wholeSelection.summary.removed)
        // Device time is written to the millisecond: the rate follows from the sums, not from the parts' rates.
        #expect(abs(selection.summary.deviceSeconds - wholeSelection.summary.deviceSeconds) < 0.01)
        #expect(abs(selection.summary.swapsPerDeviceHour - wholeSelection.summary.swapsPerDeviceHour) < 1e-3)
        let partRates = parts.compactMap { $0.report.selection?.summary.swapsPerDeviceHour }
        #expect(partRates.count == 3)
        let coverage = try #require(merged.coverage)
        #expect(coverage == whole.coverage)
        #expect(coverage.transitions > 100 && coverage.ratio < 1)
        #expect(coverage.ratio == Double(coverage.caught) / Double(coverage.transitions))
        let delivery = try #require(merged.delivery), wholeDelivery = try #require(whole.delivery)
        #expect(delivery.delayed == wholeDelivery.delayed && delivery.delayed > 100)
        #expect(delivery.heldBack == wholeDelivery.heldBack)
        #expect(delivery.histogram == wholeDelivery.histogram)
        for fraction in [0.5, 0.95, 1] { #expect(delivery.seconds(fraction) == wholeDelivery.seconds(fraction)) }
        // And the merged report reads back with them.
        let again = try RunReport(json: Array(merged.json.utf8))
        #expect(again.coverage == coverage && again.delivery == delivery)
        #expect(again.selection?.summary.removed == selection.summary.removed)
    }

    @Test func aReportWithoutHistogramBucketsCannotBeRead() throws {
        let old = #"{"devices":1,"regions":1}"#
        #expect(throws: InputError.self) { try RunReport(json: Array(old.utf8)) }
    }
}
