import Foundation
import Testing

@testable import GeofenceKit

@Suite struct GeodesicTests {
    /// Vincenty's series are good to ~0.1 mm; long lines get 1e-9 relative (2 cm at 20,000 km).
    static func tolerance(for distance: Double) -> Double { max(1e-4, 1e-9 * distance) }

    @Test func fixtureComesFromGeographiclib() throws {
        let reference = try GeodesicReference.load()
        #expect(reference.geographiclibVersion == "2.1")
        #expect(reference.lines.count > 200)
        #expect(reference.circles.count > 50)
    }

    @Test func distanceMatchesGeographiclibWithinATenthOfAMillimetre() throws {
        for line in try GeodesicReference.load().lines {
            let distance = Geodesic.distance(
                latitude1: line.latitude1, longitude1: line.longitude1, latitude2: line.latitude2,
                longitude2: line.longitude2)
            #expect(
                abs(distance - line.distance) <= Self.tolerance(for: line.distance),
                "\(line): got \(distance), error \(distance - line.distance) m")
        }
    }

    @Test func nearlyAntipodalDistanceIsWithinTenCentimetres() throws {
        // Vincenty's iteration fails for some of these; the fallback is documented as approximate.
        for line in try GeodesicReference.load().nearlyAntipodalLines {
            let distance = Geodesic.distance(
                latitude1: line.latitude1, longitude1: line.longitude1, latitude2: line.latitude2,
                longitude2: line.longitude2)
            #expect(abs(distance - line.distance) <= 0.1, "\(line): got \(distance), error \(distance - line.distance) m")
        }
    }

    @Test func destinationMatchesGeographiclibDirect() throws {
        for d in try GeodesicReference.load().destinations {
            let end = Geodesic.destination(
                latitude: d.latitude, longitude: d.longitude, bearing: d.bearing, distance: d.distance)
            let miss = Geodesic.distance(
                latitude1: end.latitude, longitude1: end.longitude, latitude2: d.endLatitude,
                longitude2: d.endLongitude)
            #expect(miss <= Self.tolerance(for: d.distance), "\(d): ended \(miss) m away at \(end)")
            #expect((-180.0...180.0).contains(end.longitude))
        }
    }

    @Test(arguments: [(0.0, 0.0), (51.5, -0.12), (90.0, 45.0), (-90.0, 0.0), (-33.9, 180.0)])
    func coincidentPointsAreZeroApart(latitude: Double, longitude: Double) {
        #expect(Geodesic.distance(latitude1: latitude, longitude1: longitude, latitude2: latitude, longitude2: longitude) == 0)
    }

    @Test func theAntimeridianIsOneMeridian() {
        #expect(Geodesic.distance(latitude1: 12, longitude1: 180, latitude2: 12, longitude2: -180) == 0)
        let across = Geodesic.distance(latitude1: 0, longitude1: 179.5, latitude2: 0, longitude2: -179.5)
        #expect(abs(across - Geodesic.semiMajorAxis * .pi / 180) < 1e-6)
    }

    @Test func equatorialLinesHaveLengthOfTheEquatorialArc() {
        let quarter = Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 90)
        #expect(abs(quarter - Geodesic.semiMajorAxis * .pi / 2) < 1e-6)
    }

    @Test func poleToPoleIsTheMeridianLength() {
        // Half the meridian ellipse, from geographiclib.
        let halfMeridian = 20_003_931.458_625_447
        #expect(abs(Geodesic.distance(latitude1: 90, longitude1: 0, latitude2: -90, longitude2: 0) - halfMeridian) < 1e-4)
        #expect(abs(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 180) - halfMeridian) < 1e-4)
    }

    @Test func distanceIsSymmetric() throws {
        for line in try GeodesicReference.load().lines.prefix(100) {
            let forward = Geodesic.distance(
                latitude1: line.latitude1, longitude1: line.longitude1, latitude2: line.latitude2,
                longitude2: line.longitude2)
            let backward = Geodesic.distance(
                latitude1: line.latitude2, longitude1: line.longitude2, latitude2: line.latitude1,
                longitude2: line.longitude1)
            #expect(abs(forward - backward) <= 1e-6)
        }
    }

    @Test func destinationThenDistanceRoundTrips() {
        for (latitude, bearing, distance) in [(0.0, 45.0, 10_000.0), (69.9, 300.0, 1.0), (-45.0, 180.0, 1_000_000.0)] {
            let end = Geodesic.destination(latitude: latitude, longitude: 179.999, bearing: bearing, distance: distance)
            let back = Geodesic.distance(
                latitude1: latitude, longitude1: 179.999, latitude2: end.latitude, longitude2: end.longitude)
            #expect(abs(back - distance) < 1e-4)
        }
    }

    @Test func nonFiniteInputGivesNaNInsteadOfLooping() {
        #expect(Geodesic.distance(latitude1: .nan, longitude1: 0, latitude2: 0, longitude2: 0).isNaN)
        #expect(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: .infinity).isNaN)
    }

    @Test func wgs84ConstantsAreTheDefiningOnes() {
        #expect(Geodesic.semiMajorAxis == 6_378_137)
        #expect(Geodesic.flattening == 1 / 298.257_223_563)
        #expect(abs(Geodesic.semiMinorAxis - 6_356_752.314_245_179) < 1e-8)
    }
}
