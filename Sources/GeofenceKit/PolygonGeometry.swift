/// A polygon or multipolygon (GeoJSON `Polygon` / `MultiPolygon`) tested on the (longitude, latitude) plane.
///
/// Rules, chosen so that results do not depend on how the rings were drawn:
/// - Within one polygon, the even-odd rule applies over all of its rings: the first ring is the outer boundary and
///   further rings are holes, so a point in a hole is outside (and a point in an island inside a hole is inside).
/// - A multipolygon is the union of its polygons: a point is inside if it is inside any of them. Where two polygons
///   overlap the point is therefore inside, not cancelled out as a global even-odd rule would do.
/// - The boundary counts as inside: a point within ``boundaryTolerance`` degrees of any edge or vertex — of an outer
///   ring or of a hole — is inside, so that a device standing exactly on a fence line is reported consistently.
/// - Edges are straight lines in (longitude, latitude) and longitudes are not wrapped here: a polygon that crosses
///   the antimeridian or winds around a pole is first made planar by ``PolygonUnwrapping`` (the GeoJSON decoder
///   does it), whose parts may have longitudes beyond ±180°.
/// - Rings may or may not repeat their first position at the end; the repeat is ignored.
///
/// Coordinates are stored in flat arrays of `Double` so the hot loop walks contiguous memory, and every polygon
/// carries a bounding box so that most points are rejected without visiting an edge.
public struct PolygonGeometry: Sendable {
    /// Polygons, each a list of rings (first outer, then holes), each ring a list of coordinates.
    public let polygons: [[[Coordinate]]]

    /// How far (in degrees, ~11 µm on the ground) a point may be from an edge and still count as on the boundary.
    /// It absorbs the rounding of the point-to-segment computation, not measurement error.
    public static let boundaryTolerance = 1e-10

    /// Bounding box of all polygons; `+∞…−∞` when empty so that every point is rejected.
    @usableFromInline let minLatitude: Double
    @usableFromInline let maxLatitude: Double
    @usableFromInline let minLongitude: Double
    @usableFromInline let maxLongitude: Double

    /// All ring vertices, ring after ring: longitudes and latitudes.
    let longitudes: [Double]
    let latitudes: [Double]
    /// Ring `i` occupies vertices `ringStarts[i] ..< ringStarts[i + 1]`.
    let ringStarts: [Int]
    /// Polygon `j` owns rings `polygonRingStarts[j] ..< polygonRingStarts[j + 1]`.
    let polygonRingStarts: [Int]
    /// Per polygon bounding box, four values each: min longitude, max longitude, min latitude, max latitude.
    let polygonBounds: [Double]
    /// The width in degrees of longitude that the polygons cover (see ``halfExtent``).
    let longitudeWidth: Double
    /// The edges that bound the region on the Earth, four values each (longitude, latitude of both ends), for
    /// distances to the boundary: every ring's edges, except the cuts and pole closures that ``PolygonUnwrapping``
    /// adds and edges along a pole (a single point on the Earth).
    let boundaryEdges: [Double]

    /// - Parameters:
    ///   - polygons: polygons on the (longitude, latitude) plane, each a list of rings (outer first, then holes).
    ///   - boundary: the rings that bound the region on the Earth, when they differ from the polygons' (a split or
    ///     pole-closed polygon); consecutive positions are joined straight in (longitude, latitude) as written.
    public init(polygons: [[[Coordinate]]], boundary: [[Coordinate]]? = nil) {
        self.polygons = polygons
        var longitudes: [Double] = [], latitudes: [Double] = []
        var ringStarts = [0], polygonRingStarts = [0], polygonBounds: [Double] = []
        for polygon in polygons {
            var bounds = (minLon: Double.infinity, maxLon: -Double.infinity, minLat: Double.infinity, maxLat: -Double.infinity)
            for ring in polygon where !ring.isEmpty {
                var vertices = ring[...]
                if vertices.count > 1, let first = vertices.first, let last = vertices.last, first == last {
                    vertices = vertices.dropLast()
                }
                for vertex in vertices {
                    longitudes.append(vertex.longitude)
                    latitudes.append(vertex.latitude)
                    bounds.minLon = min(bounds.minLon, vertex.longitude)
                    bounds.maxLon = max(bounds.maxLon, vertex.longitude)
                    bounds.minLat = min(bounds.minLat, vertex.latitude)
                    bounds.maxLat = max(bounds.maxLat, vertex.latitude)
                }
                ringStarts.append(longitudes.count)
            }
            polygonRingStarts.append(ringStarts.count - 1)
            polygonBounds += [bounds.minLon, bounds.maxLon, bounds.minLat, bounds.maxLat]
        }
        self.longitudes = longitudes
        self.latitudes = latitudes
        self.ringStarts = ringStarts
        self.polygonRingStarts = polygonRingStarts
        self.polygonBounds = polygonBounds

        longitudeWidth = Self.longitudeWidth(longitudes)
        boundaryEdges = Self.edges(of: boundary ?? polygons.flatMap { $0 })

        let tolerance = Self.boundaryTolerance
        minLongitude = (longitudes.min() ?? .infinity) - tolerance
        maxLongitude = (longitudes.max() ?? -.infinity) + tolerance
        minLatitude = (latitudes.min() ?? .infinity) - tolerance
        maxLatitude = (latitudes.max() ?? -.infinity) + tolerance
    }

    /// Whether the point is inside any polygon or on any boundary (see the type's documentation for the rules).
    ///
    /// The bounding-box rejection is inlined into the caller; the edge walk is not, to keep call sites small.
    @inlinable
    public func contains(latitude: Double, longitude: Double) -> Bool {
        // Written as a conjunction so that NaN coordinates are rejected too.
        guard latitude >= minLatitude, latitude <= maxLatitude, longitude >= minLongitude, longitude <= maxLongitude
        else { return false }
        return containsWithinBounds(latitude: latitude, longitude: longitude)
    }

    /// The edge walk for a point already inside the overall bounding box.
    @usableFromInline
    func containsWithinBounds(latitude y: Double, longitude x: Double) -> Bool {
        let tolerance = Self.boundaryTolerance
        return longitudes.withUnsafeBufferPointer { xs in
            latitudes.withUnsafeBufferPointer { ys in
                for polygon in 0..<(polygonRingStarts.count - 1) {
                    let box = 4 * polygon
                    guard x >= polygonBounds[box] - tolerance, x <= polygonBounds[box + 1] + tolerance,
                        y >= polygonBounds[box + 2] - tolerance, y <= polygonBounds[box + 3] + tolerance
                    else { continue }
                    var inside = false
                    for ring in polygonRingStarts[polygon]..<polygonRingStarts[polygon + 1] {
                        let start = ringStarts[ring], end = ringStarts[ring + 1]
                        var j = end - 1
                        for i in start..<end {
                            let ax = xs[j], ay = ys[j], bx = xs[i], by = ys[i]
                            j = i
                            // An edge that does not span the point's latitude (widened by the tolerance) can
                            // neither touch the point nor be crossed by its horizontal ray.
                            if y < min(ay, by) - tolerance || y > max(ay, by) + tolerance { continue }
                            if x >= min(ax, bx) - tolerance, x <= max(ax, bx) + tolerance,
                                Self.isOnSegment(x, y, ax, ay, bx, by, tolerance: tolerance)
                            {
                                return true
                            }
                            if (ay > y) != (by > y), x < (bx - ax) * (y - ay) / (by - ay) + ax {
                                inside.toggle()
                            }
                        }
                    }
                    if inside { return true }
                }
                return false
            }
        }
    }

    /// The longitude extent: max − min, or for unwrapped parts (which reach beyond ±180°, the copies of one
    /// polygon on both sides of the antimeridian) the shortest arc of the circle that holds every longitude.
    static func longitudeWidth(_ longitudes: [Double]) -> Double {
        guard let low = longitudes.min(), let high = longitudes.max() else { return 0 }
        guard low < -180 || high > 180 else { return high - low }
        let sorted = longitudes.map { ($0 + 180).truncatingRemainder(dividingBy: 360) }
            .map { $0 < 0 ? $0 + 360 : $0 }.sorted()
        var largestGap = sorted[0] + 360 - sorted[sorted.count - 1]
        for i in sorted.indices.dropFirst() { largestGap = max(largestGap, sorted[i] - sorted[i - 1]) }
        return 360 - largestGap
    }

    /// Whether (x, y) is within `tolerance` (Euclidean, in degrees) of the segment from (ax, ay) to (bx, by).
    static func isOnSegment(
        _ x: Double, _ y: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, tolerance: Double
    ) -> Bool {
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        var t = 0.0
        if length2 > 0 { t = min(1, max(0, ((x - ax) * dx + (y - ay) * dy) / length2)) }
        let ex = ax + t * dx - x, ey = ay + t * dy - y
        return ex * ex + ey * ey <= tolerance * tolerance
    }
}
