import Foundation
import GeofenceKit
import LocationRouter
import Synchronization

/// GPX files for playback, loaded by the library (``GPXTraceFile``), with the CLI's exit codes and warnings.
enum GPXFiles {
    /// The traces the GPX files play, in the order given, printing what was skipped as warnings, file by file.
    ///
    /// The files are read on every core at once (each file on one thread), and their warnings and errors are then
    /// reported in order, exactly as reading them one after the other would: a file's warnings, then the next
    /// file's, up to the first file that fails.
    /// - Throws: exit 66 when a file cannot be read, 65 when one is not GPX or has no playable point.
    static func traces(paths: [String], console: Console) throws(CommandError) -> [Trace] {
        let loads = Mutex([Load?](repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            var warnings: [InputError] = []
            let result = Result { try GPXTraceFile.load(path: paths[index], warnings: &warnings) }
            loads.withLock { $0[index] = Load(result: result, warnings: warnings) }
        }
        var traces: [Trace] = []
        for (path, load) in zip(paths, loads.withLock { $0 }) {
            guard let load else { preconditionFailure("every file is loaded above") }
            traces.append(try trace(path: path, load, console: console))
        }
        return traces
    }

    /// A file's trace or why it has none, with the points it skipped.
    private struct Load: Sendable {
        var result: Result<Trace, any Error>
        var warnings: [InputError]
    }

    /// The trace of a loaded file, its warnings printed.
    private static func trace(path: String, _ load: Load, console: Console) throws(CommandError) -> Trace {
        for warning in load.warnings.prefix(RejectionPrinter.limit) {
            console.err("warning: \(warning)\n")
        }
        if load.warnings.count > RejectionPrinter.limit {
            console.err("warning: \(path): \(load.warnings.count - RejectionPrinter.limit) more points skipped\n")
        }
        switch load.result {
        case .success(let trace): return trace
        case .failure(let error as InputReadError): throw CommandError(.inputMissing, error.description)
        case .failure(let error): throw CommandError(.invalidInput, "\(error)")
        }
    }
}
