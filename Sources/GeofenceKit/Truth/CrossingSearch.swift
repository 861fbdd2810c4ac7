import Foundation

/// Where a device that moves between two samples crosses a region's boundary: the search behind the
/// continuous-time ground truth.
///
/// The device moves at a uniform pace in time from one sample to the next along the path the playback source
/// itself uses between waypoints (``GeoMotion/interpolate(_:_:_:_:fraction:)``: linearly in latitude and longitude
/// for short legs, the shorter way across ±180° and over the poles otherwise). Containment is the region's own exact
/// test (``RegionGeometry/contains(latitude:longitude:)``: the WGS84 geodesic for circles, the boundary inside).
///
/// The segment is cut at probe points between which the device crosses the boundary at most once: for a circle
/// its closest approach to the centre (containment along a line is one interval), for a polygon the midpoints
/// between the segment's intersections with the edges. Between two probes whose states differ, bisection on the
/// exact test finds the crossing to `resolution` (a fraction of the segment). A path that enters and leaves
/// between two samples yields both crossings: a pass-through.
public enum CrossingSearch {
    /// One boundary crossing along a segment.
    public struct Crossing: Sendable, Equatable {
        /// Where along the segment (0 … 1) the device first has its new state.
        public var fraction: Double
        /// `true` for outside → inside.
        public var entering: Bool

        public init(fraction: Double, entering: Bool) {
            self.fraction = fraction
            self.entering = entering
        }
    }

    /// The crossings of `geometry`'s boundary along the segment from `a` to `b`, in order.
    /// - Parameter resolution: how close (as a fraction of the segment) each crossing is found.
    public static func crossings(
        of geometry: RegionGeometry, from a: (latitude: Double, longitude: Double),
        to b: (latitude: Double, longitude: Double), resolution: Double
    ) -> [Crossing] {
        var probes = probes(of: geometry, from: a, to: b)
        let linear = GeoMotion.interpolatesLinearly(a.latitude, a.longitude, b.latitude, b.longitude)
        if !linear {
            // A leg the player follows on a great circle (long, polar, or across ±180°): the probes above assume a
            // straight line, so denser ones keep each bracket to at most one crossing.
            probes = (probes + (1..<64).map { Double($0) / 64 }).sorted()
        }
        func inside(_ s: Double) -> Bool {
            // Where the player puts the device: the shorter way, as ``GeoMotion/interpolate(_:_:_:_:fraction:)``.
            let position = GeoMotion.interpolate(a.latitude, a.longitude, b.latitude, b.longitude, fraction: s)
            return geometry.contains(latitude: position.latitude, longitude: position.longitude)
        }
        var crossings: [Crossing] = []
        var previous = probes[0]
        var previousInside = inside(previous)
        for probe in probes.dropFirst() where probe > previous {
            let probeInside = inside(probe)
            if probeInside != previousInside {
                var low = previous
                var high = probe
                var steps = 0
                while high - low > resolution && steps < 64 {
                    let middle = (low + high) / 2
                    if inside(middle) == previousInside { low = middle } else { high = middle }
                    steps += 1
                }
                crossings.append(Crossing(fraction: high, entering: probeInside))
            }
            previous = probe
            previousInside = probeInside
        }
        return crossings
    }

    /// Whether a segment whose ends are both `inside` (or both outside) may still cross the boundary on the way:
    /// a cheap, conservative test that lets the caller skip the search for most segments.
    public static func mayPassThrough(
        _ geometry: RegionGeometry, from a: (latitude: Double, longitude: Double),
        to b: (latitude: Double, longitude: Double), inside: Bool, scale: LocalScale? = nil
    ) -> Bool {
        switch geometry {
        case .circle(let circle):
            // A straight line enters a circle at most once and leaves it at most once: in → in never crosses.
            // Out → out crosses only when the closest approach comes near the radius (a margin covers the plane).
            guard !inside else { return false }
            let scale = scale ?? LocalScale(latitude: circle.center.latitude)
            let x0 = wrapped(a.longitude - circle.center.longitude) * scale.metresPerDegreeLongitude
            let y0 = (a.latitude - circle.center.latitude) * scale.metresPerDegreeLatitude
            let dx = wrapped(b.longitude - a.longitude) * scale.metresPerDegreeLongitude
            let dy = (b.latitude - a.latitude) * scale.metresPerDegreeLatitude
            let squared = dx * dx + dy * dy
            let s = squared > 0 ? min(1, max(0, -(x0 * dx + y0 * dy) / squared)) : 0
            let x = x0 + s * dx
            let y = y0 + s * dy
            let reach = circle.radius * 1.01 + 1
            return x * x + y * y <= reach * reach
        case .polygon(let polygon):
            let tolerance = PolygonGeometry.boundaryTolerance
            return max(a.longitude, b.longitude) >= polygon.minLongitude - tolerance
                && min(a.longitude, b.longitude) <= polygon.maxLongitude + tolerance
                && max(a.latitude, b.latitude) >= polygon.minLatitude - tolerance
                && min(a.latitude, b.latitude) <= polygon.maxLatitude + tolerance
        }
    }

    /// Fractions, ascending from 0 to 1, such that the boundary is crossed at most once between two neighbours.
    static func probes(
        of geometry: RegionGeometry, from a: (latitude: Double, longitude: Double),
        to b: (latitude: Double, longitude: Double)
    ) -> [Double] {
        switch geometry {
        case .circle(let circle):
            // The closest approach to the centre in the plane tangent at the centre: along a straight line the
            // distance to the centre falls, then rises, so each side of it crosses the circle at most once.
            let scale = LocalScale(latitude: circle.center.latitude)
            let x0 = wrapped(a.longitude - circle.center.longitude) * scale.metresPerDegreeLongitude
            let y0 = (a.latitude - circle.center.latitude) * scale.metresPerDegreeLatitude
            let dx = wrapped(b.longitude - a.longitude) * scale.metresPerDegreeLongitude
            let dy = (b.latitude - a.latitude) * scale.metresPerDegreeLatitude
            let squared = dx * dx + dy * dy
            guard squared > 0 else { return [0, 1] }
            let closest = min(1, max(0, -(x0 * dx + y0 * dy) / squared))
            return closest > 0 && closest < 1 ? [0, closest, 1] : [0, 1]
        case .polygon(let polygon):
            let cuts = polygon.edgeIntersections(from: a, to: b)
            guard !cuts.isEmpty else { return [0, 1] }
            var probes: [Double] = [0]
            var previous = 0.0
            for cut in cuts + [1] where cut > previous {
                probes.append((previous + cut) / 2)
                previous = cut
            }
            probes.append(1)
            return probes
        }
    }

    private static func wrapped(_ degrees: Double) -> Double {
        degrees > 180 ? degrees - 360 : degrees < -180 ? degrees + 360 : degrees
    }
}

extension PolygonGeometry {
    /// The fractions (ascending, in 0 … 1) where the straight (longitude, latitude) segment from `a` to `b` meets an
    /// edge of any ring. Edges parallel to the segment are skipped: the probes around them still bracket a change.
    func edgeIntersections(
        from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)
    ) -> [Double] {
        let tolerance = Self.boundaryTolerance
        guard max(a.longitude, b.longitude) >= minLongitude - tolerance, min(a.longitude, b.longitude) <= maxLongitude + tolerance,
            max(a.latitude, b.latitude) >= minLatitude - tolerance, min(a.latitude, b.latitude) <= maxLatitude + tolerance
        else { return [] }
        let rx = b.longitude - a.longitude
        let ry = b.latitude - a.latitude
        var cuts: [Double] = []
        for ring in 0..<(ringStarts.count - 1) {
            let start = ringStarts[ring]
            let end = ringStarts[ring + 1]
            guard end - start >= 2 else { continue }
            for i in start..<end {
                let j = i + 1 < end ? i + 1 : start
                let cx = longitudes[i] - a.longitude
                let cy = latitudes[i] - a.latitude
                let ex = longitudes[j] - longitudes[i]
                let ey = latitudes[j] - latitudes[i]
                let denominator = rx * ey - ry * ex
                guard denominator != 0 else { continue }
                let s = (cx * ey - cy * ex) / denominator
                let u = (cx * ry - cy * rx) / denominator
                if s >= 0 && s <= 1 && u >= 0 && u <= 1 { cuts.append(s) }
            }
        }
        return cuts.sorted()
    }
}
