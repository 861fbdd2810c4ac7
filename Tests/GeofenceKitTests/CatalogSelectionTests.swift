import Testing
@testable import GeofenceKit

/// Devices choosing the nearest regions of a shared catalog: when they choose again, what a new region the device
/// is already inside reports under each profile, polygons, tiny catalogs, and own regions that never rotate.
@Suite struct CatalogSelectionTests {
    static let start = (latitude: 10.0, longitude: 20.0)

    /// A point `metres` east of the start (along the geodesic).
    static func east(_ metres: Double) -> (latitude: Double, longitude: Double) {
        Geodesic.destination(latitude: start.latitude, longitude: start.longitude, bearing: 90, distance: metres)
    }

    /// Ten circles of 50 m every 200 m east of the start: region k is centred k × 200 m east.
    static let line: [(region: Int32, shape: CatalogIndex.Shape)] = (0..<10).map { k in
        let centre = east(Double(k) * 200)
        return (Int32(k), .circle(latitude: centre.latitude, longitude: centre.longitude, radius: 50))
    }

    static func catalog(_ shapes: [(region: Int32, shape: CatalogIndex.Shape)] = line) -> SharedCatalog {
        let byRegion = Dictionary(uniqueKeysWithValues: shapes.map { ($0.region, $0.shape) })
        return SharedCatalog(index: CatalogIndex(shapes)) { id in
            switch byRegion[id]! {
            case .circle(let latitude, let longitude, let radius):
                MonitoredRegion(id: id, geometry: .circle(CircleGeometry(center: Coordinate(unchecked: latitude, longitude), radius: radius)))
            case .polygon(let polygon):
                MonitoredRegion(id: id, geometry: .polygon(polygon))
            }
        }
    }

    static func monitor(
        slots: Int, settings: MonitorSettings = .exact, selection: SelectionSettings = SelectionSettings(strategy: .nearest),
        catalog: SharedCatalog = catalog(), own: [MonitoredRegion] = []
    ) -> MonitorState {
        var settings = settings
        settings.slotLimit = slots
        var state = MonitorState(settings: settings) { _ in own }
        state.selectRegions(from: catalog, settings: selection)
        return state
    }

    static func monitored(_ state: MonitorState) -> [Int32] {
        state.exportState().first?.regions.map(\.region) ?? []
    }

    @discardableResult
    static func feed(
        _ state: inout MonitorState, _ point: (latitude: Double, longitude: Double), second: Int64
    ) -> [GeofenceEvent] {
        var events: [GeofenceEvent] = []
        _ = state.evaluate(
            device: 0, latitude: point.latitude, longitude: point.longitude, time: Timestamp(seconds: Double(second)), into: &events)
        return events
    }

    @Test func aDeviceChoosesAgainExactlyAtTheRefreshDistance() {
        let target = Self.east(520)
        let exactly = Geodesic.distance(
            latitude1: Self.start.latitude, longitude1: Self.start.longitude, latitude2: target.latitude, longitude2: target.longitude)
        var state = Self.monitor(slots: 3, selection: SelectionSettings(strategy: .nearest, refreshDistance: exactly))
        Self.feed(&state, Self.start, second: 0)
        #expect(Self.monitored(state) == [0, 1, 2])
        Self.feed(&state, Self.east(519.99), second: 10)
        #expect(Self.monitored(state) == [0, 1, 2])
        #expect(state.selectionSummary.refreshes == 0)
        Self.feed(&state, target, second: 20)
        // At 520 m the centres at 400, 600 and 800 m are nearest; 2 stays in its slot, 0 and 1 make room.
        #expect(Set(Self.monitored(state)) == [2, 3, 4])
        #expect(state.selectionSummary == SelectionSummary(refreshes: 1, added: 2, removed: 2, deviceSeconds: 20))
        #expect(state.monitoredRegionCount == 3)
    }

    @Test func aRefreshIntervalChoosesAgainWithoutMoving() {
        var state = Self.monitor(slots: 2, selection: SelectionSettings(strategy: .nearest, refreshInterval: 60))
        Self.feed(&state, Self.start, second: 0)
        Self.feed(&state, Self.start, second: 59)
        #expect(state.selectionSummary.refreshes == 0)
        Self.feed(&state, Self.start, second: 60)
        #expect(state.selectionSummary.refreshes == 1)
        #expect(state.selectionSummary.added == 0)
    }

    /// The device monitors one region (region 0, which it stands in), then jumps into region 5.
    @Test(arguments: [
        (MonitoringProfile.exact, [EventKind.exit], [EventKind]()),
        (.ios, [.state], [.state]),
        (.android, [.exit, .enter], [.enter]),
    ])
    func aNewRegionTheDeviceIsInsideFollowsTheProfile(
        profile: MonitoringProfile, atTheJump: [EventKind], forTheNewRegion: [EventKind]
    ) {
        var settings = profile.settings
        settings.delivery = .instant  // events at the moment the platform decides them
        var state = Self.monitor(slots: 1, settings: settings)
        Self.feed(&state, Self.start, second: 0)
        #expect(Self.monitored(state) == [0])
        let events = Self.feed(&state, Self.east(1_000), second: 10)
        #expect(Self.monitored(state) == [5])
        #expect(events.map(\.kind) == atTheJump)
        #expect(events.filter { $0.region == 5 }.map(\.kind) == forTheNewRegion)
        if profile == .ios { #expect(events.first?.inside == true) }
        // Android dwells only where a region's transition types ask for it (none here): no dwell follows.
        var later: [GeofenceEvent] = []
        state.advance(to: Timestamp(seconds: 10 + 301), into: &later)
        #expect(later.map(\.kind) == [])
    }

    @Test func ownRegionsComeFirstAndAreNeverSwapped() {
        let far = MonitoredRegion(id: 100, geometry: .circle(CircleGeometry(center: Coordinate(unchecked: -40, -60), radius: 10)))
        var state = Self.monitor(slots: 3, own: [far])
        Self.feed(&state, Self.start, second: 0)
        #expect(Self.monitored(state) == [100, 0, 1])
        Self.feed(&state, Self.east(1_390), second: 100)
        #expect(Self.monitored(state).first == 100)
        #expect(Set(Self.monitored(state).dropFirst()) == [7, 6])
    }

    @Test func nothingFailsUnderNearestWhateverTheCatalogSize() {
        var state = Self.monitor(slots: 4, selection: SelectionSettings(strategy: .nearest, refreshDistance: 490))
        var events: [GeofenceEvent] = []
        for step in 0...40 { events += Self.feed(&state, Self.east(7 + Double(step) * 50), second: Int64(step) * 5) }
        #expect(!events.contains { $0.kind == .failed })
        #expect(state.monitoredRegionCount == 4)
        // Choices at 7, 507, 1,007 and 1,507 m: region 5 (950–1,050 m) is entered at 957 m, before the choice at
        // 1,007 m registers it while the device is inside (silently, as Core Location does): that enter is missed.
        #expect(events.filter { $0.kind == .enter }.map(\.region) == [1, 2, 3, 4, 6, 7, 8, 9])
        #expect(events.filter { $0.kind == .exit }.map(\.region) == Array(0...9))
    }

    @Test func aCatalogOfOneRegion() {
        let only = Self.east(3_000)
        var state = Self.monitor(
            slots: 20, selection: SelectionSettings(strategy: .nearest, proximityRadius: 1_000),
            catalog: Self.catalog([(7, .circle(latitude: only.latitude, longitude: only.longitude, radius: 100))]))
        Self.feed(&state, Self.start, second: 0)
        #expect(Self.monitored(state).isEmpty)  // 2.9 km away: beyond the proximity radius
        #expect(state.monitoredRegionCount == 0)
        Self.feed(&state, Self.east(2_000), second: 100)
        #expect(Self.monitored(state) == [7])
        let events = Self.feed(&state, only, second: 200)
        #expect(events.map(\.kind) == [.enter])
        #expect(state.monitoredRegionCount == 1)
    }

    @Test func polygonsInTheCatalogAreChosenAndEntered() {
        let corner = Self.east(600)
        let ring = [(0.0, 0.0), (0.0, 0.002), (0.002, 0.002), (0.002, 0.0)].map {
            Coordinate(unchecked: corner.latitude - 0.001 + $0.0, corner.longitude + $0.1)
        }
        var shapes = Self.line.filter { $0.region >= 5 }
        shapes.append((42, .polygon(PolygonGeometry(polygons: [[ring]]))))
        var state = Self.monitor(slots: 1, catalog: Self.catalog(shapes))
        Self.feed(&state, Self.start, second: 0)
        #expect(Self.monitored(state) == [42])
        let events = Self.feed(&state, Self.east(620), second: 30)
        #expect(events.map(\.kind) == [.enter])
        #expect(events.first?.region == 42)
    }

    /// A platform that refuses polygons (`ios`, `android`, `--polygons refuse`) never chooses one, so nothing fails:
    /// the device monitors the nearest circle instead, at its first choice (queried or answered before the run) and
    /// at the choices after it. A platform that monitors polygons chooses the nearer polygon.
    @Test(arguments: [PolygonHandling.refuse, .monitor], [false, true])
    func aPlatformThatRefusesPolygonsNeverChoosesOne(handling: PolygonHandling, prepared: Bool) {
        let corner = Self.east(600)
        let ring = [(0.0, 0.0), (0.0, 0.002), (0.002, 0.002), (0.002, 0.0)].map {
            Coordinate(unchecked: corner.latitude - 0.001 + $0.0, corner.longitude + $0.1)
        }
        // The polygon spans 600–820 m east; the circles lie at 1,000 m and beyond.
        var shapes = Self.line.filter { $0.region >= 5 }
        shapes.append((42, .polygon(PolygonGeometry(polygons: [[ring]]))))
        var settings = MonitorSettings.exact
        settings.polygons = handling
        var state = Self.monitor(slots: 1, settings: settings, catalog: Self.catalog(shapes))
        if prepared { state.prepareFirstChoices(at: [(0, Self.start.latitude, Self.start.longitude)]) }
        var events = Self.feed(&state, Self.start, second: 0)
        #expect(Self.monitored(state) == (handling == .refuse ? [5] : [42]))
        // 700 m on: a choice again, in the polygon.
        events += Self.feed(&state, Self.east(700), second: 60)
        #expect(Self.monitored(state) == (handling == .refuse ? [5] : [42]))
        events += Self.feed(&state, Self.east(1_000), second: 120)
        #expect(!events.contains { $0.kind == .failed })
        #expect(events.map(\.region) == (handling == .refuse ? [5] : [42, 42]))
        #expect(events.map(\.kind) == (handling == .refuse ? [.enter] : [.enter, .exit]))
    }

    /// A polygon chosen, dropped and chosen again keeps one entry of the polygon table, whether it is monitored
    /// as it is or through its enclosing circle.
    @Test(arguments: [PolygonHandling.monitor, .enclosingCircle])
    func aPolygonChosenAgainReusesItsPolygonTableEntry(handling: PolygonHandling) {
        let corner = Self.east(600)
        let ring = [(0.0, 0.0), (0.0, 0.002), (0.002, 0.002), (0.002, 0.0)].map {
            Coordinate(unchecked: corner.latitude - 0.001 + $0.0, corner.longitude + $0.1)
        }
        var shapes = Self.line.filter { $0.region != 3 }
        shapes.append((42, .polygon(PolygonGeometry(polygons: [[ring]]))))
        var settings = MonitorSettings.exact
        settings.polygons = handling
        var state = Self.monitor(slots: 1, settings: settings, catalog: Self.catalog(shapes))
        var kinds: [EventKind] = []
        // 600 m steps: every sample chooses again, alternately the polygon and a circle.
        for step in 0..<12 {
            let events = Self.feed(&state, Self.east(step % 2 == 0 ? 0 : 700), second: Int64(step) * 60)
            kinds += events.filter { $0.region == 42 }.map(\.kind)
            #expect(Self.monitored(state) == (step % 2 == 0 ? [0] : [42]))
        }
        #expect(state.selectionSummary.refreshes == 11)
        #expect(state.polygons.count == 1)
        // The polygon still works from its shared entry: chosen while the device stands in it, it is set silently
        // (exact), and left at the next sample.
        #expect(kinds == Array(repeating: .exit, count: 5))
    }

    @Test func timersMoveWithTheirRegionWhenSlotsAreRearranged() {
        // Entries wait 20 s for confirmation; the choice that drops region 0 moves region 2, pending, into its slot.
        var settings = MonitoringProfile.ios.settings
        settings.hysteresis = Hysteresis(bufferDistance: 0, confirmationTime: 20)
        settings.delivery = .instant
        var state = Self.monitor(slots: 3, settings: settings, selection: SelectionSettings(strategy: .nearest, refreshDistance: 100))
        Self.feed(&state, Self.east(-300), second: 0)
        #expect(Self.monitored(state) == [0, 1, 2])
        let atTheChoice = Self.feed(&state, Self.east(390), second: 10)
        #expect(Self.monitored(state) == [2, 1, 3])
        #expect(atTheChoice.map(\.kind) == [.state])  // iOS reports the new region's state (outside)
        var events: [GeofenceEvent] = []
        state.advance(to: Timestamp(seconds: 60), into: &events)
        #expect(events.map(\.kind) == [.enter, .state])  // iOS also reports the state with each transition
        #expect(events.first?.region == 2)
        #expect(events.first?.time == Timestamp(seconds: 30))
    }

    /// A restored device keeps its saved choice (regions, state, timers, anchor) and chooses again only when its
    /// refresh rule says so: a restart in the middle gives the events of the uninterrupted run.
    @Test(arguments: [MonitoringProfile.exact, .ios, .android])
    func aRestoredDeviceKeepsItsChoiceUntilItsRefreshIsDue(profile: MonitoringProfile) {
        var settings = profile.settings
        settings.delivery = .instant
        // Back and forth along the line, 130 m a step: choices every few steps, some in the middle of a region.
        let path = (0..<24).map { Self.east(Double(($0 * 130) % 1_500)) }
        func feed(_ state: inout MonitorState, _ steps: Range<Int>) -> [GeofenceEvent] {
            var events: [GeofenceEvent] = []
            for step in steps {
                _ = state.evaluate(
                    device: 0, latitude: path[step].latitude, longitude: path[step].longitude,
                    time: Timestamp(seconds: Double(step) * 10), into: &events)
            }
            return events
        }
        var whole = Self.monitor(slots: 3, settings: settings)
        let before = feed(&whole, 0..<10)
        let saved = whole.exportState()
        let refreshesBefore = whole.selectionSummary.refreshes
        let after = feed(&whole, 10..<24)
        #expect(saved.first?.chosen != nil)
        // The restart at step 10: a new monitor restored from the snapshot.
        var restarted = MonitorState(settings: {
            var limited = settings
            limited.slotLimit = 3
            return limited
        }(), regions: { _ in [] }, restored: { device in saved.first { $0.device == device } })
        restarted.selectRegions(from: Self.catalog(), settings: SelectionSettings(strategy: .nearest))
        let resumed = feed(&restarted, 10..<24)
        let key = { (event: GeofenceEvent) in "\(event.region) \(event.kind) \(event.time.microseconds)" }
        #expect(resumed.map(key) == after.map(key))
        #expect(before.count > 0 && after.count > 3)
        #expect(restarted.selectionSummary.refreshes == whole.selectionSummary.refreshes - refreshesBefore)
        #expect(restarted.selectionSummary.refreshes > 0)
        #expect(Self.monitored(restarted) == Self.monitored(whole))
    }

    @Test func theSameSamplesGiveTheSameEvents() {
        func run() -> [GeofenceEvent] {
            var state = Self.monitor(slots: 3, settings: MonitoringProfile.android.settings)
            var events: [GeofenceEvent] = []
            for step in 0...60 { events += Self.feed(&state, Self.east(Double(step * 37 % 2_000)), second: Int64(step) * 7) }
            return events
        }
        let first = run(), second = run()
        #expect(first.map { "\($0.region)\($0.kind)\($0.time.microseconds)" } == second.map { "\($0.region)\($0.kind)\($0.time.microseconds)" })
        #expect(first.count > 10)
    }
}
