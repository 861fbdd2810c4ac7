import Foundation
import Testing

@testable import GeofenceKit

@Suite struct CircleGeometryTests {
    static func circle(_ latitude: Double, _ longitude: Double, radius: Double) -> CircleGeometry {
        CircleGeometry(center: Coordinate(unchecked: latitude, longitude), radius: radius)
    }

    /// Whether the exact geodesic puts the point inside: the ground truth `contains` must reproduce.
    static func geodesicallyInside(_ circle: CircleGeometry, _ latitude: Double, _ longitude: Double) -> Bool {
        Geodesic.distance(
            latitude1: circle.center.latitude, longitude1: circle.center.longitude, latitude2: latitude,
            longitude2: longitude) <= circle.radius
    }

    @Test(arguments: try GeodesicReference.load().circles)
    func everyReferencePointIsClassifiedAsGeographiclibDoes(reference: GeodesicReference.Circle) {
        let circle = Self.circle(reference.latitude, reference.longitude, radius: reference.radius)
        for point in reference.points {
            #expect(
                circle.contains(latitude: point.latitude, longitude: point.longitude) == point.isInside,
                "(\(point.latitude), \(point.longitude)) should be \(point.isInside ? "inside" : "outside")")
        }
    }

    @Test(arguments: [0.0, 35.0, -69.9, 74.9, 80.0])
    func pointOneCentimetreOutsideIsOutside(latitude: Double) {
        let circle = Self.circle(latitude, 179.9999, radius: 10_000)
        for bearing in stride(from: 0.0, to: 360, by: 22.5) {
            let p = Geodesic.destination(latitude: latitude, longitude: 179.9999, bearing: bearing, distance: 10_000.01)
            #expect(!circle.contains(latitude: p.latitude, longitude: p.longitude), "bearing \(bearing)")
        }
    }

    @Test(arguments: [0.0, 35.0, -69.9, 74.9, 80.0])
    func pointOneCentimetreInsideIsInside(latitude: Double) {
        let circle = Self.circle(latitude, -179.9999, radius: 10_000)
        for bearing in stride(from: 0.0, to: 360, by: 22.5) {
            let p = Geodesic.destination(latitude: latitude, longitude: -179.9999, bearing: bearing, distance: 9_999.99)
            #expect(circle.contains(latitude: p.latitude, longitude: p.longitude), "bearing \(bearing)")
        }
    }

    @Test func theBoundaryCountsAsInside() {
        let centre = (latitude: 48.8566, longitude: 2.3522)
        let point = (latitude: 48.9, longitude: 2.4)
        let radius = Geodesic.distance(
            latitude1: centre.latitude, longitude1: centre.longitude, latitude2: point.latitude, longitude2: point.longitude)
        let circle = Self.circle(centre.latitude, centre.longitude, radius: radius)
        #expect(circle.contains(latitude: point.latitude, longitude: point.longitude))
        #expect(circle.contains(latitude: centre.latitude, longitude: centre.longitude))
    }

    @Test func marginFollowsTheFittedCubicBound() {
        // margin = 2 · (2.4e-16 + 1.2e-15 · tan²φ0) · r³ + 1 µm
        #expect(abs(Self.circle(0, 0, radius: 10_000).margin - 4.81e-4) < 1e-6)
        #expect(abs(Self.circle(70, 0, radius: 10_000).margin - 0.01860) < 1e-4)
        #expect(Self.circle(-70, 0, radius: 10_000).margin < 0.02)
        #expect(Self.circle(45, 0, radius: 1).margin < 2e-6)
    }

    @Test(arguments: [(75.1, 1_000.0), (-89.0, 10.0), (90.0, 10.0), (10.0, 100_001.0), (0.0, 1_000_000.0), (0.0, 0.0)])
    func marginIsInfiniteWhereTheBoundIsNotValidated(latitude: Double, radius: Double) {
        #expect(Self.circle(latitude, 0, radius: radius).margin == .infinity)
    }

    /// Random circles and points, near the boundary (inside and outside the margin band) and far away, including
    /// across the antimeridian: `contains` must agree with the exact geodesic on every one.
    @Test func randomPointsAgreeWithTheExactGeodesic() {
        var random = SplitMix64(seed: 0x5EED_CAFE)
        var checked = 0
        for _ in 0..<300 {
            let latitude = random.uniform(-75...75)
            let longitude = Bool.random(using: &random) ? random.uniform(-180...180) : 180 - random.uniform(0...0.2)
            let radius = Bool.random(using: &random) ? exp(random.uniform(0...log(10_000.0))) : random.uniform(10_000...100_000)
            let circle = Self.circle(latitude, longitude, radius: radius)
            var points: [(Double, Double)] = []
            for _ in 0..<40 {
                // Near the boundary: within a few margins, within a metre, within 10 % of the radius.
                let offset: Double
                switch random.next() % 3 {
                case 0: offset = random.uniform(-3...3) * circle.margin
                case 1: offset = random.uniform(-1...1)
                default: offset = random.uniform(-0.1...0.1) * radius
                }
                points.append(
                    Geodesic.destination(
                        latitude: latitude, longitude: longitude, bearing: random.uniform(0...360),
                        distance: max(0, radius + offset)))
            }
            for _ in 0..<10 {
                // Anywhere on the globe, and near the circle's own antimeridian side.
                points.append((asin(random.uniform(-1...1)) * 180 / .pi, random.uniform(-180...180)))
                points.append((latitude + random.uniform(-1...1), -longitude + random.uniform(-0.5...0.5)))
            }
            for (lat, lon) in points {
                let expected = Self.geodesicallyInside(circle, lat, lon)
                #expect(circle.contains(latitude: lat, longitude: lon) == expected, "\(circle.center) r=\(radius) (\(lat), \(lon))")
                checked += 1
            }
        }
        #expect(checked == 300 * 60)
    }

    @Test func polarAndLargeCirclesFallBackToTheExactGeodesic() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<40 {
            let latitude = random.uniform(75...90) * (Bool.random(using: &random) ? 1 : -1)
            let radius = random.uniform(1...1_000_000)
            let circle = Self.circle(latitude, random.uniform(-180...180), radius: radius)
            for _ in 0..<10 {
                let p = Geodesic.destination(
                    latitude: latitude, longitude: circle.center.longitude, bearing: random.uniform(0...360),
                    distance: radius * random.uniform(0.9...1.1))
                #expect(circle.contains(latitude: p.latitude, longitude: p.longitude) == Self.geodesicallyInside(circle, p.latitude, p.longitude))
            }
        }
    }

    @Test func unusualFiniteInputsDoNotCrash() {
        let circle = Self.circle(10, 20, radius: 1e-9)
        #expect(circle.contains(latitude: 10, longitude: 20))
        #expect(!circle.contains(latitude: 10, longitude: 20.000_001))
        #expect(!circle.contains(latitude: .nan, longitude: 20))
        // Longitudes outside ±180 are wrapped rather than misread.
        #expect(Self.circle(0, 179.9, radius: 100).contains(latitude: 0, longitude: 179.9 + 720))
        _ = Self.circle(0, 0, radius: 100).contains(latitude: 1e300, longitude: -1e300)
        _ = Self.circle(89.999_999, 0, radius: 1_000_000).contains(latitude: -1e300, longitude: 1e300)
    }
}
