import GeofenceKit

extension GeoJSONRegionDecoder {
    /// One polygon made ready for the (longitude, latitude) plane: split at the antimeridian, closed over a pole,
    /// or refused (see ``PolygonUnwrapping``); what was done is a warning, so `check` reports it.
    static func planarPolygons(_ value: JSONValue, path: String, warnings: inout [InputError])
        throws(InputError) -> (polygons: [[[Coordinate]]], boundary: [[Coordinate]])
    {
        let rings = try polygon(value, path: path, warnings: &warnings)
        do {
            let result = try PolygonUnwrapping.planar(rings)
            if let note = result.note {
                warnings.append(value.error(note, path: JSONValue.path(path, index: result.noteRing)))
            }
            return (result.polygons, result.boundary)
        } catch {
            let ringPath = JSONValue.path(path, index: error.ring)
            let ringValue = (try? value.array(path: path)).flatMap { $0.indices.contains(error.ring) ? $0[error.ring] : nil }
            throw (ringValue ?? value).error(error.message, path: ringPath)
        }
    }
}
