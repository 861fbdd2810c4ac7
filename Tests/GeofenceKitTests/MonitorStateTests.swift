import Testing
@testable import GeofenceKit

/// Table-driven tests of the exact monitoring rules, driven by hand-written samples and timestamps.
@Suite struct MonitorStateTests {
    /// A 1 km circle at (25, 121); `inside` is its centre, `outside` is 11 km north.
    static let center = Coordinate(unchecked: 25, 121)
    static let inside = (latitude: 25.0, longitude: 121.0)
    static let outside = (latitude: 25.1, longitude: 121.0)

    static func circle(_ id: Int32, entry: Bool = true, exit: Bool = true) -> MonitoredRegion {
        MonitoredRegion(
            id: id, geometry: .circle(CircleGeometry(center: center, radius: 1_000)), notifyOnEntry: entry,
            notifyOnExit: exit)
    }

    /// Feeds `path` (true = inside) as samples one second apart to device 0 and returns the events' kinds.
    static func run(
        _ path: [Bool], regions: [MonitoredRegion] = [circle(0)], settings: MonitorSettings = .exact
    ) -> [GeofenceEvent] {
        var state = MonitorState(settings: settings) { _ in regions }
        var events: [GeofenceEvent] = []
        for (second, isInside) in path.enumerated() {
            let point = isInside ? inside : outside
            let accepted = state.evaluate(
                device: 0, latitude: point.latitude, longitude: point.longitude,
                time: Timestamp(microseconds: Int64(second) * 1_000_000), into: &events)
            #expect(accepted)
        }
        return events
    }

    @Test(arguments: [
        ([false, true], [EventKind.enter]),
        ([false, true, false], [.enter, .exit]),
        ([true, false], [.exit]),
        ([true, true, true], []),
        ([false, false], []),
        ([true], []),
        ([false, true, true, false, false, true], [.enter, .exit, .enter]),
    ])
    func transitionsProduceEnterAndExitAfterASilentFirstSample(path: [Bool], expected: [EventKind]) {
        #expect(Self.run(path).map(\.kind) == expected)
    }

    @Test func eventsCarryTheCausingSampleTimeAndPosition() {
        let events = Self.run([false, false, true])
        #expect(events.count == 1)
        #expect(events.first?.time == Timestamp(microseconds: 2_000_000))
        #expect(events.first?.latitude == Self.inside.latitude)
        #expect(events.first?.region == 0)
    }

    @Test func notifyFlagsSuppressOnlyTheirTransition() {
        #expect(Self.run([false, true, false], regions: [Self.circle(0, entry: false)]).map(\.kind) == [.exit])
        #expect(Self.run([false, true, false], regions: [Self.circle(0, exit: false)]).map(\.kind) == [.enter])
        #expect(Self.run([false, true, false, true], regions: [Self.circle(0, entry: false, exit: false)]).isEmpty)
    }

    @Test func suppressedTransitionsStillUpdateTheState() {
        // Entry is not notified, but the device is inside afterwards, so leaving is an exit.
        let events = Self.run([false, true, false], regions: [Self.circle(0, entry: false)])
        #expect(events.map(\.kind) == [.exit])
    }

    @Test(arguments: [
        (InitialTriggers(), true, [EventKind]()),
        (InitialTriggers(), false, []),
        (.state, true, [.state]),
        (.state, false, [.state]),
        (.enter, true, [.enter]),
        (.enter, false, []),
    ])
    func initialTriggerDecidesWhatTheFirstSampleReports(trigger: InitialTriggers, startsInside: Bool, expected: [EventKind]) {
        let events = Self.run([startsInside], settings: MonitorSettings(initialTriggers: trigger))
        #expect(events.map(\.kind) == expected)
        if trigger == .state { #expect(events.first?.inside == startsInside) }
    }

    @Test func registrationsPastTheSlotLimitFailWithCode5AndTheOthersKeepWorking() {
        let regions = (0..<22).map { Self.circle(Int32($0)) }
        let events = Self.run([false, true], regions: regions)
        let failed = events.filter { $0.kind == .failed }
        #expect(failed.map(\.region) == [20, 21])
        #expect(failed.allSatisfy { $0.code == 5 && $0.failure == .tooManyRegions })
        #expect(failed.allSatisfy { $0.time == Timestamp(microseconds: 0) })
        let entered = events.filter { $0.kind == .enter }.map(\.region)
        #expect(entered == Array(0..<20))
    }

    @Test func slotLimitAndCodeComeFromTheSettings() {
        let regions = (0..<4).map { Self.circle(Int32($0)) }
        let events = Self.run([false], regions: regions, settings: MonitorSettings(slotLimit: 3, tooManyRegionsCode: 1001))
        #expect(events.map(\.kind) == [.failed])
        #expect(events.first?.code == 1001)
        #expect(events.first?.region == 3)
    }

    @Test func aSampleOlderThanTheDevicesPreviousOneIsRejectedAndChangesNothing() {
        var state = MonitorState(settings: .exact) { _ in [Self.circle(0)] }
        var events: [GeofenceEvent] = []
        #expect(state.evaluate(device: 0, latitude: 25.1, longitude: 121, time: Timestamp(microseconds: 10), into: &events))
        #expect(!state.evaluate(device: 0, latitude: 25, longitude: 121, time: Timestamp(microseconds: 9), into: &events))
        #expect(events.isEmpty)
        #expect(state.outOfOrderCount == 1)
        #expect(state.evaluatedCount == 1)
        #expect(state.isInside(device: 0, slot: 0) == false)
        // Equal times are in order.
        #expect(state.evaluate(device: 0, latitude: 25, longitude: 121, time: Timestamp(microseconds: 10), into: &events))
        #expect(events.map(\.kind) == [.enter])
    }

    @Test func devicesAreIndependentAndLookedUpByTheirOwnIndex() {
        // Device d monitors region d only; a table of stride 2 serves the odd devices.
        var state = MonitorState(settings: .exact, stride: 2) { device in [Self.circle(device)] }
        var events: [GeofenceEvent] = []
        for device: Int32 in [1, 3, 5] {
            _ = state.evaluate(device: device, latitude: 25.1, longitude: 121, time: Timestamp(microseconds: 0), into: &events)
        }
        _ = state.evaluate(device: 3, latitude: 25, longitude: 121, time: Timestamp(microseconds: 1), into: &events)
        #expect(events.map(\.device) == [3])
        #expect(events.map(\.region) == [3])
        #expect(state.deviceCount == 3)
        #expect(state.monitoredRegionCount == 3)
        #expect(state.isInside(device: 3, slot: 0) == true)
        #expect(state.isInside(device: 5, slot: 0) == false)
        #expect(state.isInside(device: 7, slot: 0) == nil)
    }

    @Test func theBoundaryCountsAsInsideForPolygons() throws {
        let square = PolygonGeometry(polygons: [[[
            Coordinate(unchecked: 0, 0), Coordinate(unchecked: 0, 1), Coordinate(unchecked: 1, 1),
            Coordinate(unchecked: 1, 0), Coordinate(unchecked: 0, 0),
        ]]])
        var state = MonitorState(settings: .exact) { _ in [MonitoredRegion(id: 0, geometry: .polygon(square))] }
        var events: [GeofenceEvent] = []
        _ = state.evaluate(device: 0, latitude: 2, longitude: 0.5, time: Timestamp(microseconds: 0), into: &events)
        _ = state.evaluate(device: 0, latitude: 1, longitude: 0.5, time: Timestamp(microseconds: 1), into: &events)
        #expect(events.map(\.kind) == [.enter])
    }

    @Test(arguments: [MonitoringProfile.exact, .ios, .android])
    func anExportedStateHoldsTheLatestPositionUnderEveryProfile(profile: MonitoringProfile) {
        var state = MonitorState(settings: profile.settings) { _ in [Self.circle(0)] }
        var events: [GeofenceEvent] = []
        _ = state.evaluate(device: 0, latitude: 25.1, longitude: 121.0, time: Timestamp(microseconds: 0), into: &events)
        _ = state.evaluate(device: 0, latitude: 25.2, longitude: 121.3, time: Timestamp(microseconds: 1_000_000), into: &events)
        let exported = state.exportState()
        #expect(exported.count == 1)
        #expect(exported.first?.latitude == 25.2 && exported.first?.longitude == 121.3)
        #expect(exported.first?.time == 1_000_000)
    }

    /// A region added between runs registers at the device's first sample of the new run, under every profile:
    /// the device already inside it gets exactly what a fresh registration there gives (the profile's initial
    /// triggers), and the regions it had continue from their saved state without reporting anything again.
    @Test(arguments: MonitoringProfile.allCases)
    func aRegionAddedBetweenRunsRegistersAtTheFirstSampleOfTheNextRun(profile: MonitoringProfile) throws {
        // Delivered at once: with a delay, the new region's answer waits behind the device's pending deliveries
        // (DeliveryRulesTests.aRestoredDeviceKeepsItsDeliveriesInOrder).
        var settings = profile.settings
        settings.delivery = .instant
        // Region 1: a 1 km circle around `outside`; the device starts inside region 0 and ends the first run
        // inside region 1 (it was not monitoring it then).
        let added = MonitoredRegion(
            id: 1, geometry: .circle(CircleGeometry(center: Coordinate(unchecked: 25.1, 121), radius: 1_000)))
        var first = MonitorState(settings: settings) { _ in [Self.circle(0)] }
        var events: [GeofenceEvent] = []
        _ = first.evaluate(device: 0, latitude: Self.inside.latitude, longitude: Self.inside.longitude, time: Timestamp(microseconds: 0), into: &events)
        _ = first.evaluate(device: 0, latitude: Self.outside.latitude, longitude: Self.outside.longitude, time: Timestamp(microseconds: 1_000_000), into: &events)
        let saved = try #require(first.exportState().first)

        let resumedAt = Timestamp(microseconds: 5_000_000)
        var second = MonitorState(settings: settings, regions: { _ in [Self.circle(0), added] }, restored: { $0 == 0 ? saved : nil })
        var resumed: [GeofenceEvent] = []
        _ = second.evaluate(device: 0, latitude: Self.outside.latitude, longitude: Self.outside.longitude, time: resumedAt, into: &resumed)
        second.advance(to: Timestamp(microseconds: 3_600_000_000), into: &resumed)

        var fresh = MonitorState(settings: settings) { _ in [added] }
        var expected: [GeofenceEvent] = []
        _ = fresh.evaluate(device: 0, latitude: Self.outside.latitude, longitude: Self.outside.longitude, time: resumedAt, into: &expected)
        fresh.advance(to: Timestamp(microseconds: 3_600_000_000), into: &expected)

        var uninterrupted = MonitorState(settings: settings) { _ in [Self.circle(0)] }
        var continued: [GeofenceEvent] = []
        for (point, time) in [(Self.inside, 0), (Self.outside, 1_000_000), (Self.outside, resumedAt.microseconds)] {
            _ = uninterrupted.evaluate(device: 0, latitude: point.latitude, longitude: point.longitude, time: Timestamp(microseconds: time), into: &continued)
            if time == 1_000_000 { continued.removeAll() }
        }
        uninterrupted.advance(to: Timestamp(microseconds: 3_600_000_000), into: &continued)

        #expect(resumed.filter { $0.region == 0 } == continued, "region 0 continues from its saved state")
        #expect(resumed.filter { $0.region == 1 } == expected)
        #expect(second.isInside(device: 0, slot: 1) == true)
    }
}
