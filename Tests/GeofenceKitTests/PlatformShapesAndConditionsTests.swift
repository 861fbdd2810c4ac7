import Testing
@testable import GeofenceKit

/// Issue 14's platform rules beyond delays: polygons under platform profiles, CLMonitor conditions, Android
/// transition types and initial exit, and visits.
@Suite struct PlatformShapesAndConditionsTests {
    typealias Step = PlatformRulesTests.Step

    /// A long thin polygon north of the centre: 0.001° wide (about 100 m), from 0 to ~1.1 km north.
    static let strip = MonitoredRegion(
        id: 0,
        geometry: .polygon(PolygonGeometry(polygons: [[[
            Coordinate(unchecked: 25, 120.9995), Coordinate(unchecked: 25, 121.0005), Coordinate(unchecked: 25.01, 121.0005),
            Coordinate(unchecked: 25.01, 120.9995), Coordinate(unchecked: 25, 120.9995),
        ]]])))

    /// The profile's rules delivered at once, without hysteresis, so events fall at the samples' times.
    static func immediate(_ profile: MonitoringProfile) -> MonitorSettings {
        var settings = profile.settings
        settings.delivery = .instant
        settings.hysteresis = Hysteresis()
        settings.confidence = nil
        return settings
    }

    static func run(_ steps: [Step], _ settings: MonitorSettings, _ regions: [MonitoredRegion]) -> [GeofenceEvent] {
        var state = MonitorState(settings: settings, seed: 3) { _ in regions }
        var events: [GeofenceEvent] = []
        for step in steps {
            let point = Geodesic.destination(latitude: 25, longitude: 121, bearing: 0, distance: step.metres)
            _ = state.evaluate(
                device: 0, latitude: point.latitude, longitude: point.longitude,
                time: Timestamp(microseconds: step.seconds * 1_000_000), into: &events)
        }
        state.advance(to: Timestamp(microseconds: 100_000_000_000), into: &events)
        return events
    }

    // MARK: Polygons

    @Test(arguments: [(MonitoringProfile.ios, Int32(5)), (.android, 10), (.clmonitor, 0)])
    func platformProfilesRefusePolygons(profile: MonitoringProfile, code: Int32) {
        let circle = PlatformRulesTests.region(1)
        let events = Self.run([Step(metres: 500, seconds: 0)], Self.immediate(profile), [Self.strip, circle])
        let failed = events.filter { $0.kind == .failed }
        #expect(failed.map(\.region) == [0])
        #expect(failed.first?.failure == .unsupportedShape && failed.first?.code == code)
        #expect(failed.first?.condition == (profile == .clmonitor ? .unmonitored : nil))
        // The circle registers and is monitored.
        #expect(!events.filter { $0.region == 1 }.isEmpty)
    }

    @Test func theExactProfileStillMonitorsPolygonsItself() {
        let events = Self.run([Step(metres: 2_000, seconds: 0), Step(metres: 500, seconds: 10)], .exact, [Self.strip])
        #expect(events.map(\.kind) == [.enter])
    }

    @Test func anEnclosingCircleEntersOnlyWhenTheAppFindsTheDeviceInsideThePolygon() {
        var settings = Self.immediate(.ios)
        settings.polygons = .enclosingCircle
        settings.initialTriggers = []
        // The enclosing circle has a ~560 m radius around ~560 m north. Going east of the strip enters the
        // circle outside the polygon: nothing. Coming back north inside the strip while the circle stays entered:
        // still nothing (that would need location updates). Leaving the circle: no exit either, the app never
        // had the device inside.
        let east = Geodesic.destination(latitude: 25.005, longitude: 121, bearing: 90, distance: 300)
        var state = MonitorState(settings: settings, seed: 3) { _ in [Self.strip] }
        var events: [GeofenceEvent] = []
        _ = state.evaluate(device: 0, latitude: 25.03, longitude: 121, time: Timestamp(microseconds: 0), into: &events)
        _ = state.evaluate(device: 0, latitude: east.latitude, longitude: east.longitude, time: Timestamp(microseconds: 10_000_000), into: &events)
        _ = state.evaluate(device: 0, latitude: 25.005, longitude: 121, time: Timestamp(microseconds: 20_000_000), into: &events)
        _ = state.evaluate(device: 0, latitude: 25.03, longitude: 121, time: Timestamp(microseconds: 30_000_000), into: &events)
        #expect(events.isEmpty)
        // Straight into the strip from the north: the circle's enter finds the device in the polygon.
        _ = state.evaluate(device: 0, latitude: 25.005, longitude: 121, time: Timestamp(microseconds: 40_000_000), into: &events)
        _ = state.evaluate(device: 0, latitude: 25.03, longitude: 121, time: Timestamp(microseconds: 50_000_000), into: &events)
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(events.map(\.time.microseconds) == [40_000_000, 50_000_000])
        #expect(events.allSatisfy { $0.region == 0 })
    }

    @Test func anEnclosedPolygonsAppStateSurvivesARestart() throws {
        var settings = Self.immediate(.ios)
        settings.polygons = .enclosingCircle
        settings.initialTriggers = []
        var first = MonitorState(settings: settings) { _ in [Self.strip] }
        var events: [GeofenceEvent] = []
        _ = first.evaluate(device: 0, latitude: 25.03, longitude: 121, time: Timestamp(microseconds: 0), into: &events)
        _ = first.evaluate(device: 0, latitude: 25.005, longitude: 121, time: Timestamp(microseconds: 10_000_000), into: &events)
        let saved = try #require(first.exportState().first)
        #expect(saved.regions.first?.appInside == true)
        var second = MonitorState(settings: settings, regions: { _ in [Self.strip] }, restored: { _ in saved })
        var resumed: [GeofenceEvent] = []
        _ = second.evaluate(device: 0, latitude: 25.03, longitude: 121, time: Timestamp(microseconds: 20_000_000), into: &resumed)
        #expect(resumed.map(\.kind) == [.exit])
    }

    // MARK: CLMonitor

    @Test func theTwentyFirstConditionExceedsTheLimit() {
        let regions = (0..<21).map { PlatformRulesTests.region(Int32($0)) }
        let events = Self.run([Step(metres: 0, seconds: 0)], Self.immediate(.clmonitor), regions)
        #expect(events.filter { $0.kind == .state }.count == 20)
        #expect(events.filter { $0.kind == .state }.allSatisfy { $0.condition == .satisfied && $0.inside })
        let refused = events.filter { $0.kind == .failed }
        #expect(refused.map(\.region) == [20])
        #expect(refused.first?.failure == .conditionLimitExceeded && refused.first?.condition == .unmonitored)
    }

    @Test func conditionChangesAreEntersAndExitsWithTheirState() {
        let steps = [Step(metres: 3_000, seconds: 0), Step(metres: 0, seconds: 10), Step(metres: 3_000, seconds: 20)]
        let events = Self.run(steps, Self.immediate(.clmonitor), [PlatformRulesTests.region()])
        #expect(events.map(\.kind) == [.state, .enter, .exit])
        #expect(events.map(\.condition) == [.unsatisfied, .satisfied, .unsatisfied])
    }

    @Test func anAssumedStateIsNotReportedAndAContradictingSampleIsAChange() {
        var assumedOutside = PlatformRulesTests.region()
        assumedOutside.assumedInside = false
        let inside = Self.run([Step(metres: 0, seconds: 0)], Self.immediate(.clmonitor), [assumedOutside])
        #expect(inside.map(\.kind) == [.enter])
        #expect(inside.first?.condition == .satisfied)
        let outside = Self.run([Step(metres: 3_000, seconds: 0)], Self.immediate(.clmonitor), [assumedOutside])
        #expect(outside.isEmpty)
    }

    @Test func aDeniedAppsConditionsAreUnmonitored() {
        var settings = Self.immediate(.clmonitor)
        settings.authorization = AuthorizationMix(always: 0, denied: 1)
        let events = Self.run([Step(metres: 0, seconds: 0)], settings, [PlatformRulesTests.region()])
        #expect(events.map(\.failure) == [.denied])
        #expect(events.first?.condition == .unmonitored)
    }

    // MARK: Android transition types and initial exit

    @Test func androidDwellsOnlyWhereTheRegionAsks() {
        var dwelling = PlatformRulesTests.region(0, delay: 60)
        dwelling.notifyOnDwell = true
        let plain = PlatformRulesTests.region(1, delay: 60)
        let steps = [Step(metres: 3_000, seconds: 0), Step(metres: 0, seconds: 10), Step(metres: 0, seconds: 200)]
        let events = Self.run(steps, Self.immediate(.android), [dwelling, plain])
        #expect(events.filter { $0.kind == .dwell }.map(\.region) == [0])
        #expect(events.filter { $0.kind == .enter }.map(\.region) == [0, 1])
    }

    @Test func initialTriggerExitReportsTheRegionsTheDeviceIsOutside() {
        var settings = Self.immediate(.android)
        settings.initialTriggers = [.enter, .exit]
        let near = PlatformRulesTests.region(0), far = PlatformRulesTests.region(1, radius: 100)
        let events = Self.run([Step(metres: 500, seconds: 0)], settings, [near, far])
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(events.map(\.region) == [0, 1])
        #expect(InitialTriggers(text: "enter,exit") == [.enter, .exit])
        #expect(InitialTriggers.exit.text == "exit")
    }

    // MARK: Visits

    @Test func aStopLongerThanTheMinimumStayIsAVisit() throws {
        var settings = MonitorSettings.exact
        settings.visits = VisitSettings(radius: 100, minimumStay: 300)
        // Moving, then 10 minutes within 30 m of one spot, then away; and a 2-minute stop that is no visit.
        var steps = (0..<5).map { Step(metres: Double($0) * 500, seconds: Int64($0) * 60) }
        steps += (0..<11).map { Step(metres: 2_500 + Double($0 % 3) * 10, seconds: 300 + Int64($0) * 60) }
        steps += [Step(metres: 3_500, seconds: 960), Step(metres: 3_500, seconds: 1_020), Step(metres: 5_000, seconds: 1_080)]
        let visits = Self.run(steps, settings, []).filter { $0.kind == .visit }
        #expect(visits.map(\.visit) == [.arrival, .departure])
        let arrival = try #require(visits.first), departure = try #require(visits.last)
        // The stay began with the first sample at the spot (300 s) and counts once it lasted 300 s.
        #expect(arrival.arrival?.microseconds == 300_000_000)
        #expect(arrival.time.microseconds == 600_000_000)
        #expect(departure.time.microseconds == 960_000_000)
        #expect(departure.arrival == arrival.arrival)
    }
}
