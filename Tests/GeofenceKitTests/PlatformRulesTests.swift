import Testing
@testable import GeofenceKit

/// Table-driven tests of the platform rules (hysteresis, dwell, initial triggers, profiles, authorization,
/// confidence), driven by hand-written samples and timestamps.
@Suite struct PlatformRulesTests {
    static let center = Coordinate(unchecked: 25, 121)

    /// A sample `metres` from the centre (due north) at `seconds`, with an optional accuracy.
    struct Step {
        var metres: Double
        var seconds: Int64
        var accuracy: Double? = nil
    }

    static func region(_ id: Int32 = 0, radius: Double = 1_000, dwell: Bool? = nil, delay: Double? = nil) -> MonitoredRegion {
        MonitoredRegion(
            id: id, geometry: .circle(CircleGeometry(center: center, radius: radius)), notifyOnDwell: dwell,
            loiteringDelay: delay)
    }

    /// Runs `steps` for device 0 and returns "kind@seconds" for each event (state events with their side).
    static func run(
        _ steps: [Step], settings: MonitorSettings, regions: [MonitoredRegion] = [region()], advanceTo: Int64? = nil,
        device: Int32 = 0
    ) -> [String] {
        var state = MonitorState(settings: settings, seed: 1) { _ in regions }
        var events: [GeofenceEvent] = []
        for step in steps {
            let point = Geodesic.destination(latitude: 25, longitude: 121, bearing: 0, distance: step.metres)
            _ = state.evaluate(
                device: device, latitude: point.latitude, longitude: point.longitude,
                time: Timestamp(microseconds: step.seconds * 1_000_000), accuracy: step.accuracy, into: &events)
        }
        if let advanceTo { state.advance(to: Timestamp(microseconds: advanceTo * 1_000_000), into: &events) }
        return events.map { event in
            let suffix = event.kind == .state ? (event.inside ? "(in)" : "(out)") : event.kind == .failed ? "(\(event.code))" : ""
            return "\(event.kind)\(suffix)@\(event.time.microseconds / 1_000_000)"
        }
    }

    /// The profiles' rules, delivered at once (delivery delays have their own tests: ``DeliveryRulesTests``).
    static let ios = instant(.ios)
    static let android = instant(.android)

    static func instant(_ profile: MonitoringProfile) -> MonitorSettings {
        var settings = profile.settings
        settings.delivery = .instant
        return settings
    }
    static var iosNoInitialState: MonitorSettings {
        var settings = ios
        settings.initialTriggers = []
        return settings
    }

    // MARK: Hysteresis

    @Test(arguments: [
        // A device that grazes the boundary inside the 200 m buffer never enters.
        ([Step(metres: 2_000, seconds: 0), Step(metres: 900, seconds: 10), Step(metres: 850, seconds: 40), Step(metres: 2_000, seconds: 80)], [String]()),
        // Past the buffer and staying 20 s: enter, stamped when confirmed.
        ([Step(metres: 2_000, seconds: 0), Step(metres: 700, seconds: 10), Step(metres: 700, seconds: 25), Step(metres: 700, seconds: 35)], ["enter@30"]),
        // Past the buffer, but back within it before 20 s: the confirmation starts over.
        ([Step(metres: 2_000, seconds: 0), Step(metres: 700, seconds: 10), Step(metres: 900, seconds: 20), Step(metres: 700, seconds: 35), Step(metres: 700, seconds: 50)], []),
        ([Step(metres: 2_000, seconds: 0), Step(metres: 700, seconds: 10), Step(metres: 900, seconds: 20), Step(metres: 700, seconds: 35), Step(metres: 700, seconds: 60)], ["enter@55"]),
        // Leaving needs 1,200 m (radius + buffer) for 20 s.
        ([Step(metres: 0, seconds: 0), Step(metres: 1_100, seconds: 10), Step(metres: 1_150, seconds: 60), Step(metres: 1_300, seconds: 70), Step(metres: 1_300, seconds: 95)], ["exit@90"]),
    ])
    func hysteresisNeedsTheBufferDistanceForTheConfirmationTime(steps: [Step], expected: [String]) {
        #expect(Self.run(steps, settings: Self.iosNoInitialState) == expected)
    }

    @Test func aRegionsOwnHysteresisOverridesTheProfiles() {
        var own = Self.region()
        own.bufferDistance = 50
        own.confirmationTime = 5
        // Under exact rules, this region alone debounces: 60 m inside for 5 s.
        let steps = [Step(metres: 2_000, seconds: 0), Step(metres: 980, seconds: 10), Step(metres: 940, seconds: 20), Step(metres: 940, seconds: 30)]
        #expect(Self.run(steps, settings: .exact, regions: [own]) == ["enter@25"])
        #expect(Self.run(steps, settings: .exact, regions: [Self.region()]) == ["enter@10"])
        // Under iOS rules, a region without hysteresis reports every crossing at once.
        var none = Self.region()
        none.bufferDistance = 0
        none.confirmationTime = 0
        #expect(Self.run(steps, settings: Self.iosNoInitialState, regions: [none]) == ["enter@10"])
    }

    @Test func aDwellStartedByAConfirmationBeforeTheNextSampleFiresBeforeIt() {
        var own = Self.region(dwell: true, delay: 10)
        own.bufferDistance = 50
        own.confirmationTime = 5
        // Entered (confirmed) at 15, dwelling from 25: both before the sample at 100, as a watermark would fire them.
        let late = [Step(metres: 2_000, seconds: 0), Step(metres: 940, seconds: 10), Step(metres: 900, seconds: 100)]
        #expect(Self.run(late, settings: .exact, regions: [own]) == ["enter@15", "dwell@25"])
        let watermarked = Self.run(Array(late.prefix(2)), settings: .exact, regions: [own], advanceTo: 100)
        #expect(watermarked == ["enter@15", "dwell@25"])
    }

    @Test func aConfirmationFallsDueWithoutAnotherSampleWhenTheClockAdvances() {
        let steps = [Step(metres: 2_000, seconds: 0), Step(metres: 700, seconds: 10)]
        #expect(Self.run(steps, settings: Self.iosNoInitialState, advanceTo: 29) == [])
        #expect(Self.run(steps, settings: Self.iosNoInitialState, advanceTo: 30) == ["enter@30"])
    }

    @Test func aRegionSmallerThanTheBufferIsEnteredHalfwayToItsCentre() {
        let small = [Self.region(radius: 100)]
        let steps = [Step(metres: 2_000, seconds: 0), Step(metres: 60, seconds: 10), Step(metres: 60, seconds: 40)]
        #expect(Self.run(steps, settings: Self.iosNoInitialState, regions: small) == [])
        let deeper = [Step(metres: 2_000, seconds: 0), Step(metres: 40, seconds: 10), Step(metres: 40, seconds: 40)]
        #expect(Self.run(deeper, settings: Self.iosNoInitialState, regions: small) == ["enter@30"])
    }

    // MARK: Dwell

    static var exactWithDwell: MonitorSettings { .exact }
    static let dwellRegion = [region(dwell: true, delay: 30)]

    @Test(arguments: [
        // Inside when the delay elapses: one dwell, stamped when it elapsed.
        ([Step(metres: 2_000, seconds: 0), Step(metres: 0, seconds: 10), Step(metres: 0, seconds: 50), Step(metres: 0, seconds: 90)], ["enter@10", "dwell@40"]),
        // Exits before the delay: no dwell, ever.
        ([Step(metres: 2_000, seconds: 0), Step(metres: 0, seconds: 10), Step(metres: 2_000, seconds: 30), Step(metres: 2_000, seconds: 90)], ["enter@10", "exit@30"]),
        // One dwell per stay: a second stay dwells again.
        ([Step(metres: 2_000, seconds: 0), Step(metres: 0, seconds: 10), Step(metres: 0, seconds: 45), Step(metres: 2_000, seconds: 50), Step(metres: 0, seconds: 60), Step(metres: 0, seconds: 95)], ["enter@10", "dwell@40", "exit@50", "enter@60", "dwell@90"]),
    ])
    func dwellFiresOncePerStayAndNeverAfterAnExit(steps: [Step], expected: [String]) {
        #expect(Self.run(steps, settings: Self.exactWithDwell, regions: Self.dwellRegion) == expected)
    }

    @Test func dwellFiresForADeviceThatStopsReportingWhileInside() {
        let steps = [Step(metres: 2_000, seconds: 0), Step(metres: 0, seconds: 10)]
        #expect(Self.run(steps, settings: .exact, regions: Self.dwellRegion, advanceTo: 39) == ["enter@10"])
        #expect(Self.run(steps, settings: .exact, regions: Self.dwellRegion, advanceTo: 1_000) == ["enter@10", "dwell@40"])
    }

    // MARK: Initial triggers

    @Test(arguments: [
        ("none", true, [String]()),
        ("state", true, ["state(in)@0"]),
        ("state", false, ["state(out)@0"]),
        ("enter", true, ["enter@0"]),
        ("enter", false, []),
        ("dwell", true, ["dwell@30"]),
        ("enter,dwell", true, ["enter@0", "dwell@30"]),
        ("enter,dwell", false, []),
    ])
    func aRegionRegisteredWhileInsideReportsWhatTheTriggersSay(triggers: String, startsInside: Bool, expected: [String]) throws {
        var settings = MonitorSettings.exact
        settings.initialTriggers = try #require(InitialTriggers(text: triggers))
        let steps = [Step(metres: startsInside ? 0 : 2_000, seconds: 0)]
        #expect(Self.run(steps, settings: settings, regions: Self.dwellRegion, advanceTo: 100) == expected)
    }

    @Test func androidEntersAndDwellsAtRegistrationByDefault() {
        let steps = [Step(metres: 0, seconds: 0)]
        // Dwell only where the region's transition types ask for it.
        #expect(Self.run(steps, settings: Self.android, regions: [Self.region(dwell: true, delay: 60)], advanceTo: 100) == ["enter@0", "dwell@60"])
        #expect(Self.run(steps, settings: Self.android, regions: [Self.region(delay: 60)], advanceTo: 100) == ["enter@0"])
    }

    @Test func iosReportsTheInitialStateOfEveryRegion() {
        let regions = [Self.region(0), Self.region(1, radius: 100)]
        #expect(Self.run([Step(metres: 500, seconds: 0)], settings: Self.ios, regions: regions) == ["state(in)@0", "state(out)@0"])
    }

    // MARK: Limits, failures and authorization

    @Test func the21stRegistrationFailsOnIOSAndThe101stOnAndroid() {
        let many = (0..<101).map { Self.region(Int32($0)) }
        let ios = Self.run([Step(metres: 5_000, seconds: 0)], settings: Self.iosNoInitialState, regions: Array(many.prefix(21)))
        #expect(ios == ["failed(5)@0"])
        var android = Self.android
        android.initialTriggers = []
        #expect(Self.run([Step(metres: 5_000, seconds: 0)], settings: android, regions: many) == ["failed(1001)@0"])
        #expect(Self.run([Step(metres: 5_000, seconds: 0)], settings: android, regions: Array(many.prefix(100))) == [])
    }

    @Test func iosRefusesARadiusAboveTheMaximumMonitoringDistance() {
        var state = MonitorState(settings: Self.iosNoInitialState) { _ in [Self.region(0, radius: 500_000), Self.region(1)] }
        var events: [GeofenceEvent] = []
        _ = state.evaluate(device: 0, latitude: 25, longitude: 121, time: Timestamp(microseconds: 0), into: &events)
        #expect(events.map(\.failure) == [.radiusTooLarge])
        #expect(events.first?.code == 5 && events.first?.region == 0)
        #expect(state.monitoredRegionCount == 1)
    }

    @Test(arguments: [(MonitoringProfile.ios, Int32(4)), (.android, 1004)])
    func aDeniedDeviceFailsEveryRegistration(profile: MonitoringProfile, code: Int32) {
        var settings = profile.settings
        settings.authorization = AuthorizationMix(always: 0, whenInUse: 0, denied: 1)
        var state = MonitorState(settings: settings) { _ in [Self.region(0), Self.region(1)] }
        var events: [GeofenceEvent] = []
        _ = state.evaluate(device: 0, latitude: 25, longitude: 121, time: Timestamp(microseconds: 0), into: &events)
        let point = Geodesic.destination(latitude: 25, longitude: 121, bearing: 0, distance: 5_000)
        _ = state.evaluate(device: 0, latitude: point.latitude, longitude: point.longitude, time: Timestamp(microseconds: 100_000_000), into: &events)
        #expect(events.map(\.kind) == [.failed, .failed])
        #expect(events.allSatisfy { $0.code == code && $0.failure == .denied })
        #expect(state.monitoredRegionCount == 0)
    }

    @Test func aWhenInUseDeviceOnlyGetsEventsInTheForegroundAndTheRestIsCounted() {
        var settings = MonitorSettings.exact
        settings.authorization = AuthorizationMix(always: 0, whenInUse: 1, denied: 0, foregroundSeconds: 60, backgroundSeconds: 60)
        var state = MonitorState(settings: settings, seed: 3) { _ in [Self.region()] }
        var events: [GeofenceEvent] = []
        // Cross the boundary every 10 s for an hour: half the crossings fall in background time.
        for i in 0..<360 {
            let point = Geodesic.destination(latitude: 25, longitude: 121, bearing: 0, distance: i % 2 == 0 ? 2_000 : 0)
            _ = state.evaluate(
                device: 0, latitude: point.latitude, longitude: point.longitude,
                time: Timestamp(microseconds: Int64(i) * 10_000_000), into: &events)
        }
        let total = 359
        #expect(events.count + state.suppressedInBackground == total)
        #expect(state.suppressedInBackground > total / 4 && events.count > total / 4)
    }

    @Test func authorizationSharesAreSeededPerDevice() {
        let mix = AuthorizationMix(always: 0.5, whenInUse: 0.3, denied: 0.2)
        let statuses = (0..<10_000).map { mix.status(ofDevice: Int32($0), seed: 42) }
        #expect(abs(Double(statuses.filter { $0 == .denied }.count) / 10_000 - 0.2) < 0.02)
        #expect(abs(Double(statuses.filter { $0 == .whenInUse }.count) / 10_000 - 0.3) < 0.02)
        #expect(statuses == (0..<10_000).map { mix.status(ofDevice: Int32($0), seed: 42) })
    }

    // MARK: Android's confidence rule

    @Test(arguments: [
        // 500 m fence (large: 85 % / 15 %), 100 m accuracy.
        (500.0, 380.0, "in"),   // the accuracy circle lies inside
        (500.0, 470.0, "-"),    // straddles: no change
        (500.0, 620.0, "out"),
        // 80 m fence (small: 75 % / 25 %), 20 m accuracy.
        (80.0, 65.0, "in"),
        (80.0, 80.0, "-"),
        (80.0, 100.0, "out"),
    ])
    func androidDecidesOnTheShareOfTheAccuracyCircleInsideTheFence(radius: Double, metres: Double, expected: String) {
        let accuracy = radius > 100 ? 100.0 : 20.0
        var settings = Self.android
        settings.initialTriggers = []
        settings.dwellByDefault = false
        let regions = [Self.region(radius: radius)]
        // From far outside, and from deep inside, towards the tested point.
        let fromOutside = Self.run([Step(metres: 5_000, seconds: 0), Step(metres: metres, seconds: 10, accuracy: accuracy)], settings: settings, regions: regions)
        let fromInside = Self.run([Step(metres: 0, seconds: 0), Step(metres: metres, seconds: 10, accuracy: accuracy)], settings: settings, regions: regions)
        switch expected {
        case "in": #expect(fromOutside == ["enter@10"] && fromInside == [])
        case "out": #expect(fromOutside == [] && fromInside == ["exit@10"])
        default: #expect(fromOutside == [] && fromInside == [])
        }
    }

    @Test func overlapFractionsAreExactForKnownGeometry() {
        #expect(RegionGeometry.lensFraction(distance: 0, accuracy: 10, radius: 100) == 1)
        #expect(RegionGeometry.lensFraction(distance: 200, accuracy: 10, radius: 100) == 0)
        // A circle centred on a long straight boundary is half inside.
        #expect(abs(RegionGeometry.halfPlaneFraction(signedDistance: 0, accuracy: 10) - 0.5) < 1e-12)
        // Centred on a huge circle's boundary: almost exactly half.
        #expect(abs(RegionGeometry.lensFraction(distance: 1e6, accuracy: 10, radius: 1e6) - 0.5) < 1e-4)
    }
}
