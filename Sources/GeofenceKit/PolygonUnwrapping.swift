/// Turns a polygon given on the sphere into polygons on the (longitude, latitude) plane that
/// ``PolygonGeometry`` tests, for the two cases where a ring's longitudes do not say what it means on their own:
///
/// - **Across the antimeridian.** An edge whose ends are more than 180° of longitude apart is taken the shorter
///   way, across ±180° (a box from 170° to −170° is 20° wide, not 340°). The ring is unwrapped into continuous
///   longitudes (170° … 190°) and split at ±180° into the part on each side, as RFC 7946 §3.1.9 asks files to do
///   themselves. An edge between −180° and 180° exactly is taken as written (the full turn of world-spanning
///   polygons such as `[[-180,-90],[180,-90],[180,90],[-180,90]]`), and so is an edge of exactly 180°.
/// - **Around a pole.** A ring whose unwrapped longitudes make one full turn encloses a pole: the north pole when
///   all its positions are north of the equator, the south pole when all are south. It is closed along the pole's
///   latitude (±90°), so the cap it bounds is inside.
///
/// Everything else — a ring that turns around the Earth while crossing the equator (which pole?), more than one
/// turn, a hole that turns around a pole — is refused with a ``Problem`` naming the ring and why.
///
/// Edges stay straight in (longitude, latitude), as RFC 7946 says: an edge along a parallel follows the parallel.
package enum PolygonUnwrapping {
    /// Why a ring cannot be placed on the plane, and which ring (0 = outer).
    package struct Problem: Error {
        package let ring: Int
        package let message: String
    }

    /// What was done to a polygon, for `check` and warnings.
    package struct Result {
        /// Planar polygons (outer ring, then holes) whose union is the polygon; longitudes may leave [−180, 180].
        package var polygons: [[[Coordinate]]]
        /// A sentence saying what was done, or `nil` when the polygon was kept as it is.
        package var note: String?
        /// The rings that bound the region on the Earth (unwrapped, without cuts or pole closures).
        package var boundary: [[Coordinate]]
        /// The ring the note is about (0 = outer).
        package var noteRing = 0
    }

    /// The planar form of one polygon (outer ring first, then holes; each ring closed).
    package static func planar(_ rings: [[Coordinate]]) throws(Problem) -> Result {
        guard let outerRing = rings.first else { return Result(polygons: [rings], note: nil, boundary: rings) }
        let outer = unwrap(outerRing)
        var holes: [Unwrapped] = []
        for (index, ring) in rings.dropFirst().enumerated() {
            let hole = unwrap(ring)
            guard hole.turns == 0 else {
                throw Problem(ring: index + 1, message: "a hole that winds around a pole is not supported")
            }
            holes.append(hole)
        }
        guard outer.turns == 0 || abs(outer.turns) == 1 else {
            throw Problem(ring: 0, message: "the ring winds \(abs(outer.turns)) times around the Earth")
        }
        guard outer.crossing != nil || holes.contains(where: { $0.crossing != nil }) else {
            return Result(polygons: [rings], note: nil, boundary: rings)  // the common case: nothing to do
        }

        var outerPoints = outer.points
        var note: String
        if outer.turns != 0 {
            let latitudes = outerRing.map(\.latitude)
            let pole: Double
            if latitudes.allSatisfy({ $0 > 0 }) {
                pole = 90
            } else if latitudes.allSatisfy({ $0 < 0 }) {
                pole = -90
            } else {
                throw Problem(
                    ring: 0,
                    message: "the ring winds around the Earth and crosses the equator: which pole it encloses is "
                        + "ambiguous (draw the region as two polygons, each on one side of the equator)")
            }
            // Close the turn along the pole's latitude: from the last position up to the pole and back.
            let last = outerPoints[outerPoints.count - 1], first = outerPoints[0]
            outerPoints.append((last.x, pole))
            outerPoints.append((first.x, pole))
            outerPoints.append(first)
            note = "the ring winds once around the \(pole > 0 ? "North" : "South") Pole: the pole is inside "
                + "(closed along latitude \(pole > 0 ? "90" : "-90"))"
        } else {
            note = "the ring crosses the antimeridian (\(outer.crossing ?? "")), taken the shorter way across ±180°: "
                + "split at ±180° (RFC 7946 §3.1.9)"
        }
        var noteRing = 0
        if outer.crossing == nil, let index = holes.firstIndex(where: { $0.crossing != nil }) {
            note = "the hole crosses the antimeridian (\(holes[index].crossing ?? "")), taken the shorter way: "
                + "split at ±180°"
            noteRing = index + 1
        }

        // Copies of the unwrapped polygon shifted by whole turns so that every longitude in [−180, 180] is
        // covered; holes go with every copy of the outer ring that they overlap.
        let outerRange = range(outerPoints)
        var polygons: [[[Coordinate]]] = []
        for shift in -2...2 {
            let offset = Double(shift) * 360
            guard outerRange.min + offset <= 180, outerRange.max + offset >= -180 else { continue }
            var polygon = [coordinates(outerPoints, offset: offset)]
            for hole in holes {
                let holeRange = range(hole.points)
                for holeShift in -3...3 {
                    let holeOffset = Double(holeShift) * 360
                    if holeRange.min + holeOffset <= outerRange.max + offset,
                        holeRange.max + holeOffset >= outerRange.min + offset
                    {
                        polygon.append(coordinates(hole.points, offset: holeOffset))
                    }
                }
            }
            polygons.append(polygon)
        }
        let boundary = ([outer] + holes).map { coordinates($0.points, offset: 0) }
        return Result(polygons: polygons, note: note, boundary: boundary, noteRing: noteRing)
    }

    /// A ring in continuous longitudes, with how many full turns it makes and its first crossing edge.
    struct Unwrapped {
        var points: [(x: Double, y: Double)]
        var turns: Int
        /// "edge from position i to j spans D° of longitude", for the first edge taken across ±180°.
        var crossing: String?
    }

    static func unwrap(_ ring: [Coordinate]) -> Unwrapped {
        guard let first = ring.first else { return Unwrapped(points: [], turns: 0, crossing: nil) }
        var points = [(x: first.longitude, y: first.latitude)]
        var crossing: String?
        var x = first.longitude
        for index in ring.indices.dropFirst() {
            let from = ring[index - 1], to = ring[index]
            var delta = to.longitude - from.longitude
            let bothOnAntimeridian = abs(from.longitude) == 180 && abs(to.longitude) == 180
            if abs(delta) > 180 && !bothOnAntimeridian {
                if crossing == nil {
                    crossing =
                        "edge from position \(index - 1) to \(index) spans \(format(abs(delta)))° of longitude"
                }
                delta -= delta > 0 ? 360 : -360
            }
            x += delta
            points.append((x, to.latitude))
        }
        // A closed ring ends where it started, up to whole turns.
        let turns = Int(((x - first.longitude) / 360).rounded())
        return Unwrapped(points: points, turns: turns, crossing: crossing)
    }

    private static func range(_ points: [(x: Double, y: Double)]) -> (min: Double, max: Double) {
        points.reduce((Double.infinity, -Double.infinity)) { (Swift.min($0.0, $1.x), Swift.max($0.1, $1.x)) }
    }

    private static func coordinates(_ points: [(x: Double, y: Double)], offset: Double) -> [Coordinate] {
        points.map { Coordinate(unchecked: $0.y, $0.x + offset) }
    }

    private static func format(_ degrees: Double) -> String {
        degrees.rounded() == degrees ? String(Int(degrees)) : String(degrees)
    }
}
