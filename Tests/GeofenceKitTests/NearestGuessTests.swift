import TestSupport
import Testing
@testable import GeofenceKit

/// A nearest-regions walk that starts with a guessed bound
/// (``CatalogIndex/nearest(latitude:longitude:point:count:within:admitting:guess:otherwise:into:)``) gives the
/// answer of a walk with no bound, whether the guess holds or not, and so do a device's refreshes, which guess from
/// the query before.
@Suite struct NearestGuessTests {
    @Test(arguments: [(20, Double.infinity), (1, .infinity), (20, 150)])
    func aGuessedWalkAnswersAsAnUnboundedOne(wanted: Int, within: Double) async throws {
        // Points inside the catalog's area and well outside it, where a guess from inside never holds.
        let points = PreparedChoicesTests.points(1_000, seed: 21) + [(25.6, 121.56), (24.0, 122.5), (-10, 30)]
        let differing = try await inBackground {
            let index = CatalogIndexTests.index(PreparedChoicesTests.circles)
            var plain = CatalogIndex.NearestRegions(), guessed = CatalogIndex.NearestRegions()
            var differing: [String] = []
            for (latitude, longitude) in points {
                index.nearest(latitude: latitude, longitude: longitude, count: wanted, within: within, into: &plain)
                let farthest = plain.distances.last ?? 0
                let point = EarthCentredPoint(latitude: latitude, longitude: longitude)
                // Too small, on the answer's farthest distance give or take the walk's rounding, loose, none.
                for guess in [0, 1, farthest * 0.5, farthest - 5e-4, farthest, farthest + 5e-4, farthest * 1.25 + 20, 1e7, .infinity] {
                    for bound in [Double.infinity, farthest + 1e-6] {
                        index.nearest(
                            latitude: latitude, longitude: longitude, point: point, count: wanted, within: within,
                            admitting: .any, guess: guess, otherwise: { bound }, into: &guessed)
                        if guessed.regions != plain.regions || guessed.distances != plain.distances {
                            differing.append("(\(latitude), \(longitude)) guess \(guess) bound \(bound)")
                        }
                    }
                }
            }
            return differing
        }
        #expect(differing.isEmpty, "answered otherwise than with no bound: \(differing.prefix(5))")
    }

    /// Devices whose every sample is a refresh (400 m apart, 300 m refresh distance), some walking out of the
    /// catalog's area, where the guess from the query before does not hold: after the last sample each monitors the
    /// regions a query without a guess finds there.
    @Test func refreshesChooseWhatAnUnguessedQueryFinds() async throws {
        let (chosen, expected) = try await inBackground {
            let circles = PreparedChoicesTests.circles
            let index = CatalogIndexTests.index(circles)
            let catalog = SharedCatalog(
                generated: CatalogIndex(circles: circles.map { .init(latitude: $0.latitude, longitude: $0.longitude, radius: $0.radius) }))
            let settings = MonitoringProfile.exact.settings
            var state = MonitorState(settings: settings) { _ in [] }
            state.selectRegions(from: catalog, settings: SelectionSettings(strategy: .nearest, refreshDistance: 300))
            let starts = PreparedChoicesTests.points(200, seed: 13)
            let steps = 30
            func position(_ device: Int, _ step: Int) -> (latitude: Double, longitude: Double) {
                (starts[device].latitude, starts[device].longitude + Double(step) * 0.004)
            }
            var events: [GeofenceEvent] = []
            for step in 0..<steps {
                for device in starts.indices {
                    let (latitude, longitude) = position(device, step)
                    _ = state.evaluate(
                        device: Int32(device), latitude: latitude, longitude: longitude,
                        time: Timestamp(seconds: Double(step)), into: &events)
                }
            }
            // The generated catalog numbers its regions in tree order: compare centres, which are unique here.
            var query = CatalogIndex.NearestRegions()
            let expected = starts.indices.map { device in
                let (latitude, longitude) = position(device, steps - 1)
                index.nearest(
                    latitude: latitude, longitude: longitude, count: settings.slotLimit,
                    admitting: CatalogAdmission(settings), into: &query)
                return query.regions.map { circles[Int($0)].latitude }.sorted()
            }
            let chosen = state.exportState().map { device in
                device.regions.map { catalog.index.centres[Int($0.region)].latitude }.sorted()
            }
            return (chosen, expected)
        }
        #expect(chosen.count == expected.count)
        #expect(chosen == expected)
    }
}
