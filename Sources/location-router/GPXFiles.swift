import Foundation
import GeofenceKit

/// Reading GPX files for playback: streamed in chunks, so a file of any size costs only its points.
enum GPXFiles {
    static let chunkSize = 1 << 20

    /// The trace a GPX file plays, printing what was skipped as warnings.
    /// - Throws: exit 66 when the file cannot be read, 65 when it is not GPX or has no playable point.
    static func trace(path: String, console: Console) throws(CommandError) -> Trace {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Files.unreadable(path) }
        defer { try? handle.close() }
        var reader = GPXReader()
        var builder = GPXTraceBuilder()
        do {
            while true {
                let data: Data
                do {
                    data = try handle.read(upToCount: chunkSize) ?? Data()
                } catch {
                    throw CommandError(.inputMissing, "\(path): cannot be read (\(error.localizedDescription))")
                }
                if data.isEmpty { break }
                builder.consume(try reader.feed([UInt8](data)))
            }
            builder.consume(try reader.finish())
        } catch let error as InputError {
            throw CommandError(.invalidInput, error.in(file: path).description)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.invalidInput, "\(path): \(error)")
        }
        for warning in builder.warnings.prefix(RejectionPrinter.limit) {
            console.err("warning: \(warning.in(file: path))\n")
        }
        if builder.warnings.count > RejectionPrinter.limit {
            console.err("warning: \(path): \(builder.warnings.count - RejectionPrinter.limit) more points skipped\n")
        }
        let trace = builder.trace(name: path)
        guard trace.pointCount > 0 else {
            throw CommandError(.invalidInput, "\(path): no playable point (no track point, route point or waypoint)")
        }
        if let range = trace.sampledTimeRange, let refusal = Trace.timeSpanRefusal(first: range.first, last: range.last) {
            throw CommandError(.invalidInput, "\(path): \(refusal)")
        }
        return trace
    }
}
