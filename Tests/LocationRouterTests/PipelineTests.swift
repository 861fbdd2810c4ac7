import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

@Suite struct PipelineTests {
    static let walk = RandomWalkConfiguration(
        devices: 300, areaRadius: 3_000, speed: 5...30, duration: 120,
        regions: GeneratedRegionsConfiguration(perDevice: 20, radius: 100...1_500, maxDistance: 2_000))

    /// The events of a plain single-threaded evaluation of the same walk, as NDJSON lines by device.
    static func referenceLines(seed: UInt64) -> [String: [String]] {
        let plan = RandomWalkPlan(configuration: walk, seed: seed)
        var lane = RandomWalkLane(plan: plan, first: 0, stride: 1)
        var reference = ReferenceEvaluator()
        var events: [GeofenceEvent] = []
        var regions: [Int32: [MonitoredRegion]] = [:]
        while true {
            var batch = LocationBatch(capacity: 512)
            guard lane.fill(&batch, capacity: 512), !batch.isEmpty else { break }
            for i in 0..<batch.count {
                let device = batch.devices[i]
                let own = regions[device] ?? plan.regions(ofDevice: device)
                regions[device] = own
                reference.evaluate(
                    device: device, latitude: batch.latitudes[i], longitude: batch.longitudes[i],
                    time: Timestamp(microseconds: batch.times[i]), regions: own, into: &events)
            }
        }
        var encoder = EventEncoder(deviceNames: .generated, regionNames: .generated(perDevice: 20))
        var bytes: [UInt8] = []
        for event in events { encoder.encode(event, into: &bytes) }
        return CollectingSink.group(String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    static func run(shards: Int, seed: UInt64 = 42, sink: CollectingSink, configure: (inout SimulationConfiguration) -> Void = { _ in })
        async throws -> RunReport
    {
        var configuration = SimulationConfiguration(source: .randomWalk(walk), seed: seed, shards: shards, batchSize: 256)
        configure(&configuration)
        return try await Simulation(configuration: configuration, sink: sink).run()
    }

    @Test(arguments: [1, 2, 3])
    func eventsEqualAPlainSingleThreadedEvaluationDeviceByDevice(shards: Int) async throws {
        let sink = CollectingSink()
        let report = try await Self.run(shards: shards, sink: sink)
        let expected = Self.referenceLines(seed: 42)
        #expect(report.eventsEmitted > 500, "the walk must cross regions for this test to mean anything")
        #expect(sink.linesByDevice == expected)
    }

    @Test func everySampleIsEvaluatedAndEveryEventDelivered() async throws {
        let sink = CollectingSink()
        let report = try await Self.run(shards: 2, sink: sink)
        #expect(report.updates == 300 * 121)
        #expect(report.samples == report.updates)
        #expect(report.devices == 300)
        #expect(report.regions == 6_000)
        #expect(report.monitoredRegions == 6_000)
        #expect(report.dropped == 0)
        #expect(report.notificationsDelivered == report.eventsEmitted)
        #expect(sink.lines.count == report.eventsEmitted)
        #expect(report.events.values.reduce(0, +) == report.eventsEmitted)
        #expect(report.latency.count == UInt64(report.eventsEmitted))
        #expect(report.simulatedSeconds == 120)
        #expect(report.samplesRead == report.updates)
        #expect(report.isBalanced)
    }

    @Test func theSameSeedGivesByteIdenticalEventsPerDevice() async throws {
        let first = CollectingSink()
        let second = CollectingSink()
        _ = try await Self.run(shards: 2, seed: 7, sink: first)
        _ = try await Self.run(shards: 3, seed: 7, sink: second)
        #expect(first.linesByDevice == second.linesByDevice)
        #expect(first.lines.sorted() == second.lines.sorted())
    }

    @Test func aSlowSinkHoldsTheSourceBackWithoutLosingAnything() async throws {
        let sink = CollectingSink(delayNanoseconds: 2_000_000)
        let report = try await Self.run(shards: 2, sink: sink) { configuration in
            configuration.eventBufferBytes = 1  // one write per event batch
            configuration.creditsPerShard = 2
        }
        #expect(report.backPressureWaits > 0)
        #expect(report.peakBatchesInFlight <= report.batchCapacity)
        #expect(report.batchCapacity == 2 * 2 + 2 * 2)
        #expect(report.dropped == 0)
        #expect(sink.lines.count == report.eventsEmitted)
        #expect(sink.linesByDevice == Self.referenceLines(seed: 42))
    }
}
