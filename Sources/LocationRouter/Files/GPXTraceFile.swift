import GeofenceFormats
import GeofenceKit

/// GPX files loaded for playback: streamed in chunks, so a file of any size costs only its points.
public enum GPXTraceFile {
    /// Why a file with no valid point cannot be played (`check` warns of it in the same words).
    public static let noPlayablePoint = "no playable point (no track point, route point or waypoint)"

    /// The trace the GPX file at `path` plays, named after the path (see ``GPXTraceBuilder`` for which points play).
    ///
    /// - Parameter warnings: receives the points skipped, with their file and line (invalid coordinates, times
    ///   that go backwards), once the whole file is read — also when it then has no playable point.
    /// - Throws: ``InputReadError`` when the file cannot be read; ``InputError`` (attributed to the file) when it
    ///   is not GPX, has no playable point, or spans more time than a run can play.
    public static func load(path: String, warnings: inout [InputError], chunkSize: Int = 1 << 20) throws -> Trace {
        let chunks = try ChunkedFileReader(path: path, chunkSize: chunkSize)
        var reader = GPXReader()
        var builder = GPXTraceBuilder()
        // One buffer for every chunk's events (a chunk holds thousands of points), as `check` reads them.
        var events: [GPXEvent] = []
        while let chunk = try chunks.next() {
            do { try reader.feed(chunk, into: &events) } catch { throw error.in(file: path) }
            builder.consume(events)
            events.removeAll(keepingCapacity: true)
        }
        do { try reader.finish(into: &events) } catch { throw error.in(file: path) }
        builder.consume(events)
        warnings += builder.warnings.map { $0.in(file: path) }
        let trace = builder.trace(name: path)
        guard trace.pointCount > 0 else { throw InputError(noPlayablePoint, file: path) }
        if let range = trace.sampledTimeRange, let refusal = Trace.timeSpanRefusal(first: range.first, last: range.last) {
            throw InputError(refusal, file: path)
        }
        return trace
    }
}
