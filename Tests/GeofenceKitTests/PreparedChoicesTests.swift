import TestSupport
import Testing
@testable import GeofenceKit

/// First choices answered ahead (``MonitorState/prepareFirstChoices(at:)``): a batch gives each point what a
/// query of its own gives, and a monitor that takes prepared answers reports what one that queries reports — also
/// for devices whose first sample is not where they were prepared.
@Suite struct PreparedChoicesTests {
    static let circles = CatalogIndexTests.circles(5_000, around: 25.03, 121.56, spread: 0.3, seed: 11)

    static func points(_ count: Int, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
        var rng = SplitMix64(seed: seed, stream: 2, purpose: 3)
        return (0..<count).map { _ in (25.03 + (rng.unit() - 0.5) * 0.35, 121.56 + (rng.unit() - 0.5) * 0.35) }
    }

    @Test(arguments: [(20, Double.infinity), (1, .infinity), (64, 1_500), (20, 50)])
    func aBatchAnswersEachPointAsItsOwnQueryDoes(wanted: Int, within: Double) async throws {
        // Duplicates and a point far outside the catalog too.
        let points = Self.points(3_000, seed: 5) + [(25.03, 121.56), (25.03, 121.56), (-10, 30)]
        let (answered, differing) = try await inBackground {
            let index = CatalogIndexTests.index(Self.circles)
            let batch = index.nearest(
                at: points, count: wanted, within: within, admitting: CatalogAdmission(maximumRadius: 300))
            var query = CatalogIndex.NearestRegions()
            let differing = points.indices.filter { k in
                index.nearest(
                    latitude: points[k].latitude, longitude: points[k].longitude, count: wanted, within: within,
                    admitting: CatalogAdmission(maximumRadius: 300), into: &query)
                return Array(batch.regions(ofPoint: k)) != query.regions.sorted()
            }
            // The call's earlier form, a maximum radius alone, answers the same.
            let earlierForm = index.nearest(at: points, count: wanted, within: within, maximumRadius: 300)
            let differingForm = points.indices.filter { earlierForm.regions(ofPoint: $0) != batch.regions(ofPoint: $0) }
            return (batch.count, differing + differingForm)
        }
        #expect(answered == points.count)
        #expect(differing.isEmpty, "points answered otherwise than by their own query: \(differing.prefix(10))")
    }

    @Test func anEmptyBatchAndAnEmptyCatalog() {
        let index = CatalogIndexTests.index(Self.circles)
        #expect(index.nearest(at: [], count: 20).count == 0)
        let empty = CatalogIndex(circles: [])
        let batch = empty.nearest(at: Self.points(3, seed: 1), count: 20)
        #expect((0..<3).allSatisfy { batch.regions(ofPoint: $0).isEmpty })
    }

    /// 300 devices walking east, one sample a second; devices 0–199 prepared at their first position, except
    /// device 7, prepared somewhere else.
    static func run(prepared: Bool, settings: MonitorSettings) -> (events: [String], regions: [[Int32]]) {
        let catalog = SharedCatalog(
            generated: CatalogIndex(circles: circles.map { .init(latitude: $0.latitude, longitude: $0.longitude, radius: $0.radius) }))
        var state = MonitorState(settings: settings) { _ in [] }
        state.selectRegions(from: catalog, settings: SelectionSettings(strategy: .nearest, refreshDistance: 300))
        let starts = Self.points(300, seed: 9)
        if prepared {
            state.prepareFirstChoices(at: (0..<200).map { row in
                row == 7 ? (row, starts[row].latitude + 0.01, starts[row].longitude) : (row, starts[row].latitude, starts[row].longitude)
            })
        }
        var events: [GeofenceEvent] = []
        for second in 0..<40 {
            for device in 0..<300 {
                _ = state.evaluate(
                    device: Int32(device), latitude: starts[device].latitude,
                    longitude: starts[device].longitude + Double(second) * 0.0003, time: Timestamp(seconds: Double(second)),
                    into: &events)
            }
        }
        return (
            events.map { "\($0.device) \($0.region) \($0.kind) \($0.time.microseconds)" },
            state.exportState().map { $0.regions.map(\.region) }
        )
    }

    @Test(arguments: [MonitoringProfile.exact, .ios, .android])
    func preparedAnswersGiveTheEventsOfQueries(profile: MonitoringProfile) async throws {
        let (queried, prepared) = try await inBackground {
            (Self.run(prepared: false, settings: profile.settings), Self.run(prepared: true, settings: profile.settings))
        }
        #expect(prepared.events == queried.events)
        #expect(prepared.regions == queried.regions)
        #expect(queried.events.count > 100)
    }
}
