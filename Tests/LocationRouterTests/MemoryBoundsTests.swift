import Foundation
import GeofenceKit
import TestSupport
import Testing
@testable import LocationRouter
import GeofenceFormats

/// Memory is bounded by design: runs too large for the machine are refused up front, a batch that fans out into
/// many events leaves in several, and a stream cannot name more devices than fit.
@Suite struct MemoryBoundsTests {
    @Test func aRunLargerThanTheMemoryAvailableIsRefusedWithTheFigures() throws {
        let gigabytes: UInt64 = 24_000_000_000
        #expect(MemoryBudget.refusal(devices: 1_000_000, regions: 20, available: gigabytes) == nil)
        let refusal = try #require(MemoryBudget.refusal(devices: 100_000_000, regions: 20, available: gigabytes))
        #expect(refusal.contains("100000000 devices × 20 regions"))
        #expect(refusal.contains("at most \(MemoryBudget.maxDevices(regions: 20, available: gigabytes)) devices fit"))
        // The limit moves with the regions each device monitors.
        #expect(MemoryBudget.maxDevices(regions: 1, available: gigabytes) > MemoryBudget.maxDevices(regions: 20, available: gigabytes))
    }

    @Test func aBatchThatFansOutIntoManyEventsLeavesInBoundedBatches() async throws {
        // 100 devices that each register 2,000 regions with a slot limit of 20: 198,000 `failed` events from
        // one batch of samples.
        let regions = (0..<2_000).map { k in
            MonitoredRegion(id: Int32(k), geometry: .circle(CircleGeometry(center: Coordinate(unchecked: 25, 121), radius: 100)))
        }
        let monitor = RegionMonitor(state: MonitorState(settings: MonitoringProfile.ios.settings, regions: { _ in regions }))
        let input = BoundedChannel<LocationBatch>(capacity: 1)
        let output = BoundedChannel<EventBatch>(capacity: 2)
        var batch = LocationBatch(capacity: 100)
        for device in 0..<100 {
            batch.append(device: Int32(device), latitude: 25, longitude: 121, time: Timestamp(microseconds: 0))
        }
        try await input.send(batch)
        input.finish()
        let consumer = Task {
            var sizes: [Int] = []
            for try await batch in output { sizes.append(batch.events.count) }
            return sizes
        }
        _ = try await monitor.run(input, output: output)
        output.finish()
        #expect(output.peakInFlight <= 2)
        let sizes = try await consumer.value
        let total = sizes.reduce(0, +)
        let failed = 100 * 1_980
        #expect(total >= failed)  // every refused registration is reported
        #expect(sizes.count > 1)
        let largest = sizes.max() ?? 0
        #expect(largest <= RegionMonitor.maxEventsPerBatch + 2_000, "one sample adds at most one device's events")
    }

    @Test func aStreamNamingMoreDevicesThanFitRejectsTheRestAndSaysWhy() async throws {
        let lines = (0..<5).map { #"{"device":"d\#($0)","lat":25.06,"lon":121.517,"time":1795248000}"# }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try temporaryFile(lines.joined(separator: "\n") + "\n", in: folder)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var input = SampleInput(descriptor: descriptor, name: "many")
        input.maxDevices = 3
        let configuration = SimulationConfiguration(
            source: .samples(input), regions: try GeoJSONRegionDecoder.decode(Array(SampleStreamTests.regionsGeoJSON.utf8)),
            shards: 1)
        let report = try await Simulation(configuration: configuration, sink: nil).run()
        #expect(report.devices == 3)
        #expect(report.rejected["tooManyDevices"] == 2)
        #expect(report.inputErrors.first?.message.contains("limit of 3 distinct devices") == true)
    }
}

