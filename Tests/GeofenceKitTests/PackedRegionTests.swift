import Foundation
import Testing

@testable import GeofenceKit

/// The monitor's slots decide containment on the plane of the sample (``SamplePlane``), with a margin taken at the
/// sample's latitude: they must agree with the exact geodesic everywhere, poles, antimeridian and large radii
/// included.
@Suite struct PackedRegionTests {
    static func geodesicDistance(_ region: PackedRegion, _ latitude: Double, _ longitude: Double) -> Double {
        Geodesic.distance(
            latitude1: region.latitude, longitude1: region.longitude, latitude2: latitude, longitude2: longitude)
    }

    @Test(arguments: try GeodesicReference.load().circles)
    func everyReferencePointIsClassifiedAsGeographiclibDoes(reference: GeodesicReference.Circle) {
        let region = PackedRegion(latitude: reference.latitude, longitude: reference.longitude, radius: reference.radius)
        for point in reference.points {
            #expect(
                region.circleContains(
                    SamplePlane(latitude: point.latitude, longitude: point.longitude), radius: reference.radius)
                    == point.isInside,
                "(\(point.latitude), \(point.longitude)) should be \(point.isInside ? "inside" : "outside")")
        }
    }

    @Test(arguments: [0.0, 35.0, -69.9, 74.9, 75.5, -80.0, 89.9])
    func pointsOneCentimetreFromTheBoundaryAcrossTheAntimeridian(latitude: Double) {
        for radius in [10.0, 10_000, 99_000] {
            let region = PackedRegion(latitude: latitude, longitude: 179.9999, radius: radius)
            for bearing in stride(from: 0.0, to: 360, by: 22.5) {
                for (distance, inside) in [(radius - 0.01, true), (radius + 0.01, false)] {
                    let p = Geodesic.destination(latitude: latitude, longitude: 179.9999, bearing: bearing, distance: distance)
                    let sample = SamplePlane(latitude: p.latitude, longitude: p.longitude)
                    #expect(region.circleContains(sample, radius: radius) == inside, "r \(radius) bearing \(bearing) at \(distance)")
                }
            }
        }
    }

    @Test func theTabulatedSineAndCosineAgreeWithTheLibrary() {
        var random = SplitMix64(seed: 90)
        for latitude in [-90, -89.5, -45, -0.5, 0, 1e-300, 0.5, 30, 60.499_999, 89.999, 90] + (0..<10_000).map({ _ in random.uniform(-90...90) }) {
            let (s, c) = MidLatitudePlane.sinCos(degrees: latitude)
            let phi = latitude * Geodesic.radiansPerDegree
            #expect(abs(s - sin(phi)) <= 4e-16, "\(latitude)")
            #expect(abs(c - cos(phi)) <= 4e-16, "\(latitude)")
        }
    }

    @Test func theWholeDegreesAreTheLibrarysSineAndCosine() {
        let table = MidLatitudePlane.wholeDegrees
        #expect(table.count == 2 * 181)
        // ±90° hold the exact values (checked below), where the library's cosine of the rounded π/2 is 6e-17.
        for degrees in -89...89 {
            let phi = Double(degrees) * Geodesic.radiansPerDegree
            let s = table[2 * (degrees + 90)], c = table[2 * (degrees + 90) + 1]
            // The library's value, to its last place on any platform.
            #expect(abs(s - sin(phi)) <= sin(phi).magnitude.ulp, "\(degrees)°")
            #expect(abs(c - cos(phi)) <= cos(phi).magnitude.ulp, "\(degrees)°")
        }
        #expect(table[180] == 0 && table[181] == 1 && table[0] == -1 && table[1] == 0 && table[360] == 1)
    }

    @Test func theMarginIsTakenAtTheSampleAndIsInfiniteWhereTheFitDoesNotHold() {
        // 2 · (2.4e-16 + 1.2e-15 · tan²φ) · r³ + 1 µm, as CircleGeometry's at the same latitude.
        #expect(abs(SamplePlane(latitude: 0, longitude: 0).margin(radius: 10_000) - 4.81e-4) < 1e-6)
        #expect(abs(SamplePlane(latitude: 70, longitude: 5).margin(radius: 10_000) - 0.01860) < 1e-4)
        #expect(SamplePlane(latitude: 74.9, longitude: 0).margin(radius: 99_000).isFinite)
        #expect(SamplePlane(latitude: 75.1, longitude: 0).margin(radius: 1_000) == .infinity)
        #expect(SamplePlane(latitude: -90, longitude: 0).margin(radius: 1) == .infinity)
        #expect(SamplePlane(latitude: 10, longitude: 0).margin(radius: 99_961) == .infinity)
    }

    /// Random circles anywhere (poles and antimeridian included), radii from 1 m to 200 km, points near the boundary
    /// and far away: the decision is the geodesic's, and the clearance never exceeds the distance to the boundary.
    @Test func randomPointsAgreeWithTheExactGeodesic() {
        var random = SplitMix64(seed: 0x51A7_E5)
        var decidedOnThePlane = 0
        var checked = 0
        for _ in 0..<400 {
            let latitude = random.uniform(-89.99...89.99)
            let longitude = Bool.random(using: &random) ? random.uniform(-180...180) : 180 - random.uniform(0...0.2)
            let radius = Bool.random(using: &random) ? exp(random.uniform(0...log(10_000.0))) : random.uniform(10_000...200_000)
            let region = PackedRegion(latitude: latitude, longitude: longitude, radius: radius)
            var points: [(latitude: Double, longitude: Double)] = []
            for _ in 0..<40 {
                // Within a few margins of the boundary, within a metre, within 10 % of the radius.
                let margin = min(SamplePlane(latitude: latitude, longitude: longitude).margin(radius: radius), radius)
                let offset: Double
                switch random.next() % 3 {
                case 0: offset = random.uniform(-3...3) * (margin.isFinite ? margin : 0.01)
                case 1: offset = random.uniform(-1...1)
                default: offset = random.uniform(-0.1...0.1) * radius
                }
                let p = Geodesic.destination(
                    latitude: latitude, longitude: longitude, bearing: random.uniform(0...360), distance: max(0, radius + offset))
                points.append((p.latitude, p.longitude))
            }
            for _ in 0..<10 {
                points.append((asin(random.uniform(-1...1)) * 180 / .pi, random.uniform(-180...180)))
                points.append((max(-90, min(90, latitude + random.uniform(-1...1))), -longitude + random.uniform(-0.5...0.5)))
            }
            for point in points {
                let sample = SamplePlane(latitude: point.latitude, longitude: point.longitude)
                let distance = Self.geodesicDistance(region, point.latitude, point.longitude)
                var clearance = Double.infinity
                #expect(region.circleContains(sample, radius: radius, clearance: &clearance) == (distance <= radius), "\(region) \(point)")
                #expect(clearance <= abs(distance - radius), "\(region) \(point): clearance \(clearance)")
                let planar = sample.distanceSquared(latitude: latitude, longitude: longitude).squareRoot()
                if abs(planar - radius) > sample.margin(radius: radius) { decidedOnThePlane += 1 }
                checked += 1
            }
        }
        #expect(checked == 400 * 60)
        // Not a vacuous agreement: most points were decided on the plane, not by the geodesic.
        #expect(decidedOnThePlane > checked / 2)
    }
}
