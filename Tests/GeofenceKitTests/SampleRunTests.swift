import Testing

@testable import GeofenceKit

/// The batch call (``MonitorState/evaluate(devices:latitudes:longitudes:times:accuracies:from:into:eventLimit:)``)
/// against the one-sample call: the same events, counters and answers, whatever the batches' bounds, the rules
/// (the exact path's own loop, or the one-sample call for the richer profiles), the shard's stride, devices' first
/// samples and samples out of order inside a batch, an event limit that stops a batch part way, and devices that
/// choose from a shared catalog (the exact loop stopping where one chooses again).
@Suite struct SampleRunTests {
    /// The walk of ``BoundaryClearanceTests/walk(around:devices:steps:seed:)`` as columns, 5 s per round, with every
    /// 97th sample moved 10 s back in time (out of order) and every 13th given an accuracy.
    struct Columns {
        var devices: [Int32] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var times: [Int64] = []
        var accuracies: [Float] = []
    }

    static func columns(latitude: Double, devices: Int) -> (regions: [[MonitoredRegion]], columns: Columns) {
        let (regions, samples) = BoundaryClearanceTests.walk(
            around: (latitude, 12.5), devices: devices, steps: 100, seed: UInt64(abs(latitude)) + 9)
        var columns = Columns()
        for (index, sample) in samples.enumerated() {
            columns.devices.append(sample.device)
            columns.latitudes.append(sample.latitude)
            columns.longitudes.append(sample.longitude)
            let time = Int64(index / devices) * 5_000_000
            columns.times.append(index % 97 == 96 ? time - 10_000_000 : time)
            columns.accuracies.append(index % 13 == 0 ? 40 : .nan)
        }
        return (regions, columns)
    }

    /// The state after the samples one by one, and the events.
    static func oneByOne(_ state: inout MonitorState, _ columns: Columns, stride: Int) -> [GeofenceEvent] {
        var events: [GeofenceEvent] = []
        for i in columns.devices.indices where Int(columns.devices[i]) % stride == 1 % stride {
            let accuracy = columns.accuracies[i]
            _ = state.evaluate(
                device: columns.devices[i], latitude: columns.latitudes[i], longitude: columns.longitudes[i],
                time: Timestamp(microseconds: columns.times[i]), accuracy: accuracy.isNaN ? nil : Double(accuracy),
                into: &events)
        }
        return events
    }

    /// The same samples through the batch call, in batches of `batch` samples, each batch's events drained at
    /// `eventLimit` and the batch resumed where the call stopped.
    static func batched(
        _ state: inout MonitorState, _ columns: Columns, stride: Int, batch: Int, eventLimit: Int
    ) -> [GeofenceEvent] {
        let shard = columns.devices.indices.filter { Int(columns.devices[$0]) % stride == 1 % stride }
        let devices = shard.map { columns.devices[$0] }, latitudes = shard.map { columns.latitudes[$0] }
        let longitudes = shard.map { columns.longitudes[$0] }, times = shard.map { columns.times[$0] }
        let accuracies = shard.map { columns.accuracies[$0] }
        var all: [GeofenceEvent] = []
        var events: [GeofenceEvent] = []
        var start = 0
        while start < shard.count {
            let end = min(shard.count, start + batch)
            var next = 0
            while next < end - start {
                next = devices[start..<end].withUnsafeBufferPointer { d in
                    latitudes[start..<end].withUnsafeBufferPointer { la in
                        longitudes[start..<end].withUnsafeBufferPointer { lo in
                            times[start..<end].withUnsafeBufferPointer { t in
                                accuracies[start..<end].withUnsafeBufferPointer { a in
                                    state.evaluate(
                                        devices: d, latitudes: la, longitudes: lo, times: t, accuracies: a, from: next,
                                        into: &events, eventLimit: eventLimit)
                                }
                            }
                        }
                    }
                }
                #expect(next == end - start || events.count >= eventLimit)
                all += events
                events.removeAll()
            }
            start = end
        }
        return all
    }

    /// The columns through two fresh monitors of `state`, one call per sample and in batches: the same events,
    /// counters and containments (every slot the profile allows); both monitors returned for the caller's checks.
    static func bothWays(
        _ state: () -> MonitorState, _ columns: Columns, devices: Int, profile: MonitoringProfile,
        run: (stride: Int, batch: Int, limit: Int)
    ) -> (single: MonitorState, batched: MonitorState) {
        var single = state()
        var batched = state()
        let expected = oneByOne(&single, columns, stride: run.stride)
        let events = Self.batched(&batched, columns, stride: run.stride, batch: run.batch, eventLimit: run.limit)
        #expect(expected.count > 20)
        #expect(events == expected, "\(profile)")
        #expect(batched.evaluatedCount == single.evaluatedCount)
        #expect(batched.outOfOrderCount == single.outOfOrderCount)
        for device in 0..<Int32(devices) where Int(device) % run.stride == 1 % run.stride {
            for slot in 0..<profile.settings.slotLimit {
                #expect(batched.isInside(device: device, slot: slot) == single.isInside(device: device, slot: slot))
            }
        }
        return (single, batched)
    }

    @Test(arguments: MonitoringProfile.allCases, [(1, 4096, Int.max), (2, 7, Int.max), (1, 333, 3), (3, 50, 1)])
    func batchesGiveTheEventsOfOneSampleAtATime(profile: MonitoringProfile, run: (stride: Int, batch: Int, limit: Int)) {
        let devices = 24
        let (regions, columns) = Self.columns(latitude: 47.4, devices: devices)
        func state() -> MonitorState {
            MonitorState(settings: profile.settings, stride: run.stride, seed: 3) { regions[Int($0)] }
        }
        let (single, batched) = Self.bothWays(
            state, columns, devices: devices, profile: profile, run: (run.stride, run.batch, run.limit))
        #expect(batched.outOfOrderCount > 0)
        #expect(batched.deviceCount == single.deviceCount)
    }

    /// A registration part way through a batch can make the table rich (a region that dwells; a polygon monitored
    /// through its enclosing circle): the batch's later samples take the richer rules too, as one call per sample
    /// does. The batch call once decided the rules at its start, and the dwells of devices registered in it were lost.
    @Test func aRegistrationThatMakesTheTableRichTakesEffectInItsBatch() {
        let devices = 24
        let (walkRegions, columns) = Self.columns(latitude: 47.4, devices: devices)
        var dwelling = walkRegions
        for k in dwelling[devices - 1].indices {
            dwelling[devices - 1][k].notifyOnDwell = true
            dwelling[devices - 1][k].loiteringDelay = 10
        }
        let regions = dwelling
        var single = MonitorState(settings: MonitoringProfile.exact.settings, stride: 1, seed: 3) { regions[Int($0)] }
        var batched = single
        let expected = Self.oneByOne(&single, columns, stride: 1)
        #expect(expected.contains { $0.kind == .dwell && $0.device == Int32(devices - 1) })
        // The whole walk in batches of 4,096: the last device registers after the others in the first one.
        #expect(Self.batched(&batched, columns, stride: 1, batch: 4096, eventLimit: .max) == expected)
    }

    /// The walk's regions as a shared catalog (480 circles of 1 m to 200 m), from a file (numbered as given) or
    /// generated (numbered in tree order, whose refreshes start bounded by the regions monitored); each device
    /// also has one region of its own. Devices choose again after 150 m, and every 60 s or never.
    @Test(
        arguments: MonitoringProfile.allCases,
        [
            (1, 4096, Int.max, false, 60), (1, 4096, Int.max, true, 60), (2, 7, Int.max, true, 60),
            (1, 333, 3, false, 60), (1, 4096, Int.max, true, nil), (2, 5, 2, false, nil),
        ] as [(Int, Int, Int, Bool, Double?)])
    func devicesChoosingFromACatalogGiveTheEventsOfOneSampleAtATime(
        profile: MonitoringProfile, run: (stride: Int, batch: Int, limit: Int, generated: Bool, interval: Double?)
    ) {
        let devices = 24
        let (regions, columns) = Self.columns(latitude: -33.9, devices: devices)
        // Radii of at most 200 m, so that the nearest regions are ones the devices cross, not ones they are in.
        let all = regions.joined().map { region -> MonitoredRegion in
            guard case .circle(let circle) = region.geometry else { fatalError("the walk's regions are circles") }
            return MonitoredRegion(
                id: region.id, geometry: .circle(CircleGeometry(center: circle.center, radius: min(circle.radius, 200))))
        }
        let shapes = all.map { region -> (region: Int32, shape: CatalogIndex.Shape) in
            guard case .circle(let circle) = region.geometry else { fatalError("the walk's regions are circles") }
            return (region.id, .circle(latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius))
        }
        func state() -> MonitorState {
            var state = MonitorState(settings: profile.settings, stride: run.stride, seed: 3) { device in
                [MonitoredRegion(id: 10_000 + device, geometry: regions[Int(device)][1].geometry)]
            }
            let catalog =
                run.generated
                ? SharedCatalog(generated: CatalogIndex(shapes)) : SharedCatalog(index: CatalogIndex(shapes)) { all[Int($0)] }
            state.selectRegions(
                from: catalog, settings: SelectionSettings(strategy: .nearest, refreshDistance: 150, refreshInterval: run.interval))
            return state
        }
        let (single, batched) = Self.bothWays(
            state, columns, devices: devices, profile: profile, run: (run.stride, run.batch, run.limit))
        #expect(single.selectionSummary.refreshes > 50)
        #expect(batched.selectionSummary == single.selectionSummary)
        #expect(batched.exportState() == single.exportState())
    }
}
