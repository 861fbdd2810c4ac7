import Testing
@testable import GeofenceKit

/// Delivery delays and `state` on every transition, as the monitor applies them (issue 14).
@Suite struct DeliveryRulesTests {
    typealias Step = PlatformRulesTests.Step

    /// Runs `steps` for device 0 and returns its events.
    static func events(
        _ steps: [Step], settings: MonitorSettings, regions: [MonitoredRegion] = [PlatformRulesTests.region()],
        device: Int32 = 0, stride: Int = 1, advanceTo: Int64 = 100_000
    ) -> [GeofenceEvent] {
        var state = MonitorState(settings: settings, stride: stride, seed: 9) { _ in regions }
        var events: [GeofenceEvent] = []
        for step in steps {
            let point = Geodesic.destination(latitude: 25, longitude: 121, bearing: 0, distance: step.metres)
            _ = state.evaluate(
                device: device, latitude: point.latitude, longitude: point.longitude,
                time: Timestamp(microseconds: step.seconds * 1_000_000), accuracy: step.accuracy, into: &events)
        }
        state.advance(to: Timestamp(microseconds: advanceTo * 1_000_000), into: &events)
        return events
    }

    /// In and out of a 1 km circle every 100 s (exact rules plus the setting under test).
    static let crossings = (0..<20).map { Step(metres: $0 % 2 == 0 ? 0 : 3_000, seconds: Int64($0) * 100) }

    static func fixed(_ seconds: Double) -> MonitorSettings {
        var settings = MonitorSettings.exact
        settings.delivery = DeliveryDelay(.fixed(seconds))
        return settings
    }

    @Test func aDelayedEventIsStampedWhenTheAppReceivesItAndCarriesItsDecision() throws {
        let events = Self.events(Self.crossings, settings: Self.fixed(30))
        #expect(events.count == 19)
        for (i, event) in events.enumerated() {
            let decided = try #require(event.detectedAt)
            #expect(decided.microseconds == Int64(i + 1) * 100_000_000)
            #expect(event.time.microseconds - decided.microseconds == 30_000_000)
        }
    }

    @Test func theExactProfileDeliversAtOnceWithoutDetectedAt() {
        let events = Self.events(Self.crossings, settings: .exact)
        #expect(events.count == 19)
        #expect(events.allSatisfy { $0.detectedAt == nil && $0.kind != .state })
        #expect(events.map { $0.time.microseconds } == (1...19).map { Int64($0) * 100_000_000 })
    }

    @Test func aDelayedEventHoldsBackTheDevicesLaterOnes() throws {
        // 250 s of delay, crossings every 100 s: each event is decided before the previous one is delivered.
        let events = Self.events(Self.crossings, settings: Self.fixed(250))
        let times = events.map(\.time.microseconds)
        #expect(times == times.sorted())
        #expect(events.map(\.kind) == (1...19).map { $0 % 2 == 1 ? EventKind.exit : .enter })
        // Held-back events are delivered no earlier than their own delay either.
        #expect(events.allSatisfy { $0.time.microseconds - ($0.detectedAt?.microseconds ?? 0) >= 250_000_000 })

        var settings = MonitorSettings.exact
        settings.delivery = DeliveryDelay(.lognormal(median: 180, p95: 600))
        let random = Self.events(Self.crossings, settings: settings).map(\.time.microseconds)
        #expect(random == random.sorted())
    }

    @Test func delaysAreTheSameWhateverTheShardCount() {
        let settings = MonitoringProfile.ios.settings
        let steps = (0..<30).map { Step(metres: $0 % 3 == 0 ? 0 : 1_500, seconds: Int64($0) * 60) }
        let alone = Self.events(steps, settings: settings, device: 5, stride: 1)
        let sharded = Self.events(steps, settings: settings, device: 5, stride: 4)
        #expect(!alone.isEmpty)
        #expect(alone == sharded)
    }

    @Test func iosReportsStateOnEveryTransitionAndAtRegistration() {
        var settings = MonitoringProfile.ios.settings
        settings.delivery = .instant
        settings.hysteresis = Hysteresis()
        let steps = [Step(metres: 0, seconds: 0), Step(metres: 3_000, seconds: 10), Step(metres: 0, seconds: 20)]
        let events = PlatformRulesTests.run(steps, settings: settings)
        #expect(events == ["state(in)@0", "exit@10", "state(out)@10", "enter@20", "state(in)@20"])
        // Without `state` in the initial triggers, no state at all.
        settings.initialTriggers = []
        #expect(PlatformRulesTests.run(steps, settings: settings) == ["exit@10", "enter@20"])
    }

    @Test func registrationAnswersAreNotDelayed() {
        let events = Self.events([Step(metres: 0, seconds: 0)], settings: MonitoringProfile.ios.settings)
        #expect(events.count == 1)
        #expect(events.first?.kind == .state && events.first?.detectedAt == nil && events.first?.time.microseconds == 0)
    }

    @Test func androidResponsivenessAddsAWaitWithinItsPeriod() throws {
        var settings = MonitorSettings.exact
        settings.confidence = nil
        var region = PlatformRulesTests.region()
        region.notificationResponsiveness = 300
        let events = Self.events(Array(Self.crossings.prefix(2)), settings: settings, regions: [region])
        let exit = try #require(events.first)
        let wait = exit.time.microseconds - (exit.detectedAt?.microseconds ?? exit.time.microseconds)
        #expect(exit.detectedAt != nil && wait > 0 && wait < 300_000_000)
    }

    @Test func aRestoredDeviceKeepsItsDeliveriesInOrder() throws {
        let settings = Self.fixed(500)
        var first = MonitorState(settings: settings) { _ in [PlatformRulesTests.region()] }
        var events: [GeofenceEvent] = []
        _ = first.evaluate(device: 0, latitude: 25, longitude: 121, time: Timestamp(microseconds: 0), into: &events)
        _ = first.evaluate(device: 0, latitude: 25.1, longitude: 121, time: Timestamp(microseconds: 10_000_000), into: &events)
        let saved = try #require(first.exportState().first)
        #expect(saved.deliveredUntil == 510_000_000)
        var second = MonitorState(settings: settings, regions: { _ in [PlatformRulesTests.region()] }, restored: { _ in saved })
        var resumed: [GeofenceEvent] = []
        _ = second.evaluate(device: 0, latitude: 25, longitude: 121, time: Timestamp(microseconds: 20_000_000), into: &resumed)
        // The enter (decided at 20 s, due at 520 s) follows the exit delivered at 510 s.
        #expect(resumed.map(\.time.microseconds) == [520_000_000])
        #expect(second.exportState().first?.deliveredUntil == 520_000_000)
    }
}

/// Events stay small: the fields of issue 14 fit in one word beside the padding.
@Suite struct GeofenceEventLayoutTests {
    @Test func anEventIsFortyEightBytesAndItsFieldsDoNotOverlap() {
        #expect(MemoryLayout<GeofenceEvent>.size == 48)
        var visit = GeofenceEvent(device: 1, region: -1, kind: .visit, time: Timestamp(microseconds: 9), latitude: 0, longitude: 0)
        visit.visit = .departure
        visit.arrival = Timestamp(microseconds: 5)
        #expect(visit.visit == .departure && visit.arrival?.microseconds == 5)
        #expect(visit.detectedAt == nil && visit.condition == nil)
        var enter = GeofenceEvent(device: 1, region: 2, kind: .enter, time: Timestamp(microseconds: 9), latitude: 0, longitude: 0)
        enter.condition = .satisfied
        enter.detectedAt = Timestamp(microseconds: 7)
        #expect(enter.condition == .satisfied && enter.detectedAt?.microseconds == 7)
        #expect(enter.visit == nil && enter.arrival == nil)
        enter.condition = .unmonitored
        #expect(enter.condition == .unmonitored)
    }
}
