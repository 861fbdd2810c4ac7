import TestSupport
import Testing

@testable import GeofenceKit

/// The registration fast path of plain circles (``MonitorState/CircleLookup``, ``SharedCatalog/circle``) against
/// the general one: the same circles given as regions that set an option to its default value (so that `accept`
/// registers them) must give the same events under every profile, at registration and after.
@Suite struct CircleRegistrationTests {
    /// A region the general path registers: `notifyOnDwell` spelled out as the profile's own default.
    static func general(_ circle: MonitoredCircle, _ settings: MonitorSettings) -> MonitoredRegion {
        var region = MonitoredRegion(circle)
        region.notifyOnDwell = settings.dwellByDefault
        return region
    }

    /// Events of the walk of ``BoundaryClearanceTests/walk(around:devices:steps:seed:)`` with its circles registered
    /// by either path, time stepping 5 s per round, the clock advanced at the end.
    static func events(settings: MonitorSettings, fastPath: Bool, latitude: Double) -> [GeofenceEvent] {
        let (regions, samples) = BoundaryClearanceTests.walk(
            around: (latitude, 12.5), devices: 30, steps: 120, seed: UInt64(abs(latitude)) + 3)
        let circles = regions.map { $0.map { $0.plainCircle! } }
        var state =
            fastPath
            ? MonitorState(settings: settings, seed: 5, circles: { $1.append(contentsOf: circles[Int($0)]) })
            : MonitorState(settings: settings, seed: 5, regions: { circles[Int($0)].map { general($0, settings) } })
        var events: [GeofenceEvent] = []
        for (index, sample) in samples.enumerated() {
            let time = Timestamp(microseconds: Int64(index / 30) * 5_000_000)
            _ = state.evaluate(
                device: sample.device, latitude: sample.latitude, longitude: sample.longitude, time: time, into: &events)
        }
        state.advance(to: Timestamp(microseconds: Int64(samples.count / 30 + 1_000) * 5_000_000), into: &events)
        return events
    }

    @Test(arguments: MonitoringProfile.allCases, [25.03, -60.0, 78.0])
    func circlesRegisterAsTheSameRegionsDo(profile: MonitoringProfile, latitude: Double) async throws {
        var settings = profile.settings
        // Every profile with dwell by default too, so that registration starts dwell timers.
        for dwell in [false, true] {
            settings.dwellByDefault = dwell
            let (fast, general) = try await inBackground { [settings] in
                (
                    Self.events(settings: settings, fastPath: true, latitude: latitude),
                    Self.events(settings: settings, fastPath: false, latitude: latitude)
                )
            }
            #expect(fast.count > 30)
            #expect(fast == general, "\(profile), dwell \(dwell)")
        }
    }

    /// Events of the same walk stopped halfway, its states saved, and continued by a second monitor that restores
    /// them (``MonitorState/restoreCircle(_:inside:row:)`` for plain circles, `accept` for the general path); the
    /// restored states too, saved again at the end.
    static func continuedEvents(
        settings: MonitorSettings, fastPath: Bool
    ) -> (events: [GeofenceEvent], states: [DeviceState]) {
        let (regions, samples) = BoundaryClearanceTests.walk(around: (25.03, 12.5), devices: 30, steps: 120, seed: 28)
        let circles = regions.map { $0.map { $0.plainCircle! } }
        func monitor(restoring saved: [DeviceState]?) -> MonitorState {
            var restored: MonitorState.StateLookup?
            if let saved {
                restored = { device in saved.first { $0.device == device } }
            }
            return fastPath
                ? MonitorState(
                    settings: settings, seed: 5, circles: { $1.append(contentsOf: circles[Int($0)]) },
                    restored: restored)
                : MonitorState(
                    settings: settings, seed: 5, regions: { circles[Int($0)].map { general($0, settings) } },
                    restored: restored)
        }
        var events: [GeofenceEvent] = []
        var state = monitor(restoring: nil)
        for (index, sample) in samples.enumerated() {
            if index == samples.count / 2 { state = monitor(restoring: state.exportState()) }
            let time = Timestamp(microseconds: Int64(index / 30) * 5_000_000)
            _ = state.evaluate(
                device: sample.device, latitude: sample.latitude, longitude: sample.longitude, time: time, into: &events)
        }
        state.advance(to: Timestamp(microseconds: Int64(samples.count / 30 + 1_000) * 5_000_000), into: &events)
        return (events, state.exportState())
    }

    /// A restored device's plain circles take their saved sides without a test of their own, and the general path
    /// where the state has a timer or the profile dwells by default: the same events and states as the general path
    /// restoring the same regions, under every profile.
    @Test(arguments: MonitoringProfile.allCases)
    func restoredCirclesRegisterAsTheSameRegionsDo(profile: MonitoringProfile) async throws {
        var settings = profile.settings
        for dwell in [false, true] {
            settings.dwellByDefault = dwell
            let (fast, general) = try await inBackground { [settings] in
                (
                    Self.continuedEvents(settings: settings, fastPath: true),
                    Self.continuedEvents(settings: settings, fastPath: false)
                )
            }
            // Events after the restart (at 300 s), and devices inside some region at the end.
            #expect(fast.events.filter { $0.time.microseconds >= 300_000_000 }.count > 30)
            #expect(fast.states.contains { $0.regions.contains(where: \.inside) })
            #expect(fast.events == general.events, "\(profile), dwell \(dwell)")
            #expect(fast.states == general.states, "\(profile), dwell \(dwell)")
        }
    }

    /// A device's circles register as one block where none is refused (``MonitorState/acceptCircles(_:row:sample:)``)
    /// and one by one where some are (past the slot limit, or too large): the same events as the general path either
    /// way, `failed` ones included. The walk's first radius (20 km) is refused under a 10 km limit, and its radii
    /// that a `Float` does not hold make the block keep exact radii from the first device on.
    @Test(arguments: [(20, nil), (15, nil), (20, 10_000.0), (30, 30_000.0)] as [(Int, Double?)])
    func circlesRegisterAtOnceOrOneByOneAsTheSameRegionsDo(slotLimit: Int, maximumRadius: Double?) async throws {
        var settings = MonitoringProfile.exact.settings
        settings.slotLimit = slotLimit
        settings.maximumRadius = maximumRadius
        let (fast, general) = try await inBackground { [settings] in
            (
                Self.events(settings: settings, fastPath: true, latitude: 25.03),
                Self.events(settings: settings, fastPath: false, latitude: 25.03)
            )
        }
        let refusals = fast.filter { $0.kind == .failed }.count
        #expect(refusals == (slotLimit < 20 ? 30 * (20 - slotLimit) : maximumRadius == 10_000 ? 30 : 0))
        #expect(fast.count > 30 + refusals)
        #expect(fast == general)
    }

    /// Regions generated in a ring around a start, with a refresh distance short enough that devices choose often.
    @Test(arguments: MonitoringProfile.allCases)
    func aCatalogsCirclesSwapInAsTheSameRegionsDo(profile: MonitoringProfile) {
        var rng = SplitMix64(seed: 11)
        let shapes: [(region: Int32, shape: CatalogIndex.Shape)] = (0..<400).map { k in
            let centre = GeoMotion.move(
                48.1, 11.6, north: rng.uniform(-6_000...6_000), east: rng.uniform(-6_000...6_000))
            return (Int32(k), .circle(latitude: centre.latitude, longitude: centre.longitude, radius: rng.uniform(40...900)))
        }
        var settings = profile.settings
        settings.slotLimit = min(settings.slotLimit, 8)
        let selection = SelectionSettings(strategy: .nearest, refreshDistance: 300)
        let generated = SharedCatalog(generated: CatalogIndex(shapes))
        // The same circles, numbered as the generated catalog numbers them, handed over as general regions.
        let own = settings
        let general = SharedCatalog(index: generated.index) { id in Self.general(generated.circle(id)!, own) }
        var results: [[GeofenceEvent]] = []
        for catalog in [generated, general] {
            var state = MonitorState(settings: settings, seed: 2) { _ in [] }
            state.selectRegions(from: catalog, settings: selection)
            var walk = SplitMix64(seed: 12)
            var events: [GeofenceEvent] = []
            var positions = (0..<10).map { _ in
                GeoMotion.move(48.1, 11.6, north: walk.uniform(-3_000...3_000), east: walk.uniform(-3_000...3_000))
            }
            for step in 0..<200 {
                for device in positions.indices {
                    positions[device] = GeoMotion.move(
                        positions[device].latitude, positions[device].longitude, north: walk.uniform(-60...60),
                        east: walk.uniform(-60...60))
                    _ = state.evaluate(
                        device: Int32(device), latitude: positions[device].latitude,
                        longitude: positions[device].longitude, time: Timestamp(seconds: Double(step) * 10), into: &events)
                }
            }
            #expect(state.selectionSummary.added > 50)
            results.append(events)
        }
        #expect(results[0].count > 50)
        #expect(results[0] == results[1])
    }
}
