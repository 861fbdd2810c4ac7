import Foundation
import Testing

@testable import GeofenceKit
import GeofenceFormats

/// The polygon rules (hysteresis buffers, accuracy shares) against geographiclib distances to the boundary, for
/// polygons from the equator to 88°, some across ±180°; edges are straight in (longitude, latitude).
@Suite(.serialized) struct PolygonThresholdTests {
    /// The reference polygon decoded as a GeoJSON file is (so split at the antimeridian where it crosses it).
    static func geometry(_ polygon: ThresholdReference.Polygon) throws -> PolygonGeometry {
        let ring = polygon.ring.map { "[\($0[0]),\($0[1])]" }.joined(separator: ",")
        let text = """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"p",\
            "geometry":{"type":"Polygon","coordinates":[[\(ring)]]}}]}
            """
        let regions = try GeoJSONRegionDecoder.decode(Array(text.utf8))
        guard case .polygon(let geometry) = regions[0].geometry else { throw InputError("not a polygon") }
        return geometry
    }

    /// A point well inside (the mean of the unwrapped vertices) and one 300 km away, in degrees.
    static func anchors(_ polygon: ThresholdReference.Polygon) -> (inside: (Double, Double), outside: (Double, Double)) {
        let unwrapped = PolygonUnwrapping.unwrap(polygon.ring.dropLast().map { Coordinate(unchecked: $0[1], $0[0]) })
        let count = Double(unwrapped.points.count)
        let latitude = unwrapped.points.map(\.y).reduce(0, +) / count
        let longitude = GeoMotion.normalizedLongitude(unwrapped.points.map(\.x).reduce(0, +) / count)
        let far = Geodesic.destination(
            latitude: latitude, longitude: longitude, bearing: latitude >= 0 ? 180 : 0, distance: 300_000)
        return ((latitude, longitude), (far.latitude, far.longitude))
    }

    @Test(arguments: try ThresholdReference.load().polygons)
    func geodesicBoundaryDistanceAgreesWithGeographiclib(polygon: ThresholdReference.Polygon) throws {
        let geometry = try Self.geometry(polygon)
        for point in polygon.points {
            let distance = geometry.geodesicBoundaryDistance(latitude: point.latitude, longitude: point.longitude)
            #expect(abs(distance - point.boundaryDistance) < 1e-3, "(\(point.latitude), \(point.longitude))")
        }
    }

    @Test(arguments: try ThresholdReference.load().polygons)
    func iosBuffersUseTheGeodesicDistanceToTheBoundary(polygon: ThresholdReference.Polygon) throws {
        let geometry = try Self.geometry(polygon)
        let (inside, outside) = Self.anchors(polygon)
        for point in polygon.points where point.boundaryDistance > 0.01 {
            let s = point.boundaryDistance, d = ThresholdRuleTests.delta(s)
            let isInside = geometry.contains(latitude: point.latitude, longitude: point.longitude)
            for (buffer, crosses) in [(s - d, true), (s + d, false)] {
                var settings = ThresholdRuleTests.immediate(.ios, buffer: buffer)
                settings.hysteresis.smallRegionEntryFraction = 1e9  // entering needs the whole buffer too
                let region = MonitoredRegion(id: 0, geometry: .polygon(geometry))
                let start = isInside ? outside : inside
                let kinds = ThresholdRuleTests.events(
                    settings, region, [(start.0, start.1, nil), (point.latitude, point.longitude, nil)])
                let expected: [EventKind] = crosses ? [isInside ? .enter : .exit] : []
                #expect(kinds == expected, "(\(point.latitude), \(point.longitude)) buffer \(buffer)")
            }
        }
    }

    @Test(arguments: try ThresholdReference.load().polygons)
    func androidSharesUseTheGeodesicDistanceToTheBoundary(polygon: ThresholdReference.Polygon) throws {
        let geometry = try Self.geometry(polygon)
        let (inside, outside) = Self.anchors(polygon)
        let confidence = Confidence()
        for point in polygon.points where point.boundaryDistance > 0.01 {
            let s = point.boundaryDistance, d = ThresholdRuleTests.delta(s)
            let isInside = geometry.contains(latitude: point.latitude, longitude: point.longitude)
            let fraction = isInside ? confidence.enterFraction : confidence.exitFraction
            // The accuracy whose share on the inner side is `fraction` at distance s: the share depends on s / a.
            var low = 1e-9, high = 1e9
            for _ in 0..<200 {
                let mid = (low * high).squareRoot()
                let share = RegionGeometry.halfPlaneFraction(signedDistance: isInside ? s : -s, accuracy: mid)
                if (share > fraction) == isInside { low = mid } else { high = mid }
            }
            let accuracy = (low * high).squareRoot()
            // Scaling the accuracy by (1 ± d/s) moves the decision's threshold d either side of s: a larger circle
            // has less of itself on the point's side, so it no longer crosses.
            for (scale, crosses) in [(1 + d / s, false), (1 - d / s, true)] {
                let start = isInside ? outside : inside
                let kinds = ThresholdRuleTests.events(
                    ThresholdRuleTests.immediate(.android), MonitoredRegion(id: 0, geometry: .polygon(geometry)),
                    [(start.0, start.1, 1e-3), (point.latitude, point.longitude, accuracy * scale)])
                let expected: [EventKind] = crosses ? [isInside ? .enter : .exit] : []
                #expect(kinds == expected, "(\(point.latitude), \(point.longitude)) accuracy \(accuracy * scale)")
            }
        }
    }
}

/// The bound that lets the plane decide polygon rules must hold wherever it is finite.
@Suite(.serialized) struct PolygonPlaneBoundTests {
    @Test(arguments: [0.0, 30, 45, 60, 70, 74.9, -45, -74.9])
    func thePlanarBoundaryDistanceIsWithinItsBound(latitude: Double) {
        var rng = SplitMix64(seed: 11, stream: UInt64(latitude.magnitude * 10), purpose: 99)
        for _ in 0..<30 {
            let longitude = rng.unit() < 0.5 ? 179.9 + rng.unit() * 0.1 : rng.unit() * 360 - 180
            let size = 2_000 + rng.unit() * 60_000
            var ring: [Coordinate] = []
            for corner in 0..<4 {
                let end = Geodesic.destination(
                    latitude: latitude, longitude: longitude, bearing: Double(corner) * 90 + rng.unit() * 60,
                    distance: size * (0.5 + rng.unit()))
                ring.append(Coordinate(unchecked: end.latitude, end.longitude))
            }
            ring.append(ring[0])
            guard let planar = try? PolygonUnwrapping.planar([ring]) else { continue }
            let polygon = PolygonGeometry(polygons: planar.polygons, boundary: planar.boundary)
            for _ in 0..<10 {
                let point = Geodesic.destination(
                    latitude: latitude, longitude: longitude, bearing: rng.unit() * 360, distance: rng.unit() * 120_000)
                let (distance, bound) = polygon.planarBoundaryDistance(latitude: point.latitude, longitude: point.longitude)
                guard bound.isFinite else { continue }
                let exact = polygon.geodesicBoundaryDistance(latitude: point.latitude, longitude: point.longitude)
                #expect(abs(distance - exact) <= bound, "(\(point.latitude), \(point.longitude)): \(distance) vs \(exact), bound \(bound)")
            }
        }
    }
}
