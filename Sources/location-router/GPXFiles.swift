import GeofenceKit
import LocationRouter

/// GPX files for playback, loaded by the library (``GPXTraceFile``), with the CLI's exit codes and warnings.
enum GPXFiles {
    /// The trace a GPX file plays, printing what was skipped as warnings.
    /// - Throws: exit 66 when the file cannot be read, 65 when it is not GPX or has no playable point.
    static func trace(path: String, console: Console) throws(CommandError) -> Trace {
        var warnings: [InputError] = []
        let result = Result { try GPXTraceFile.load(path: path, warnings: &warnings) }
        for warning in warnings.prefix(RejectionPrinter.limit) {
            console.err("warning: \(warning)\n")
        }
        if warnings.count > RejectionPrinter.limit {
            console.err("warning: \(path): \(warnings.count - RejectionPrinter.limit) more points skipped\n")
        }
        switch result {
        case .success(let trace): return trace
        case .failure(let error as InputReadError): throw CommandError(.inputMissing, error.description)
        case .failure(let error): throw CommandError(.invalidInput, "\(error)")
        }
    }
}
