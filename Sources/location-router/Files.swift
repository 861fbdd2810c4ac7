import Foundation
import GeofenceKit
import LocationRouter
import GeofenceFormats

/// Reading and writing whole files with the exit codes users script against.
enum Files {
    /// The bytes of `path`. - Throws: exit 66 when it is missing or unreadable.
    static func read(_ path: String) throws(CommandError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw unreadable(path) }
        return [UInt8](data)
    }

    /// The regions of a GeoJSON file, decoded feature by feature from the file mapped into memory (so a large file
    /// costs its pages, which the system can drop, not a tree ten times its size).
    /// - Throws: exit 66 when the file cannot be read, 65 (naming the file) when it is not a valid regions file.
    static func regions(
        _ path: String, warnings: inout [InputError], each body: (consuming Region) -> Void
    ) throws(CommandError) {
        if let error = try decodeRegions(path, warnings: &warnings, each: body) {
            throw CommandError(.invalidInput, error.in(file: path).description)
        }
    }

    /// The regions of a GeoJSON file, in file order (see ``regions(_:warnings:each:)``), filed for the devices as
    /// they are decoded (see ``RegionCatalog/Builder``).
    static func regionCatalog(_ path: String, warnings: inout [InputError]) throws(CommandError) -> RegionCatalog {
        // A circle feature takes 100 bytes or more: reserved once, the regions are never copied as they grow (pages
        // reserved beyond them are never touched).
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var catalog = RegionCatalog.Builder(expected: min(fileSize / 100, 1 << 24))
        try Files.regions(path, warnings: &warnings) { catalog.append($0) }
        return catalog.build()
    }

    /// The most warnings about a regions file that `run` and `serve` print; `check` lists them all.
    static let maxPrintedRegionWarnings = 20

    /// Prints `warnings` about the regions file `path` to standard error, the first
    /// ``maxPrintedRegionWarnings`` of them and then how many more there are (a file of ten thousand polygons
    /// across ±180° would otherwise print ten thousand lines before the run).
    static func printRegionWarnings(_ warnings: [InputError], of path: String, to console: Console) {
        for warning in warnings.prefix(maxPrintedRegionWarnings) { console.err("warning: \(warning.in(file: path))\n") }
        let more = warnings.count - maxPrintedRegionWarnings
        guard more > 0 else { return }
        let notListed = more == 1 ? "1 more warning is not listed" : "\(more) more warnings are not listed"
        console.err("warning: \(path): \(notListed) (location-router check \(path) lists them all)\n")
    }

    /// Like ``regions(_:warnings:each:)``, but returns the decoding error (with its line and column) instead of
    /// throwing it. - Throws: exit 66 when the file cannot be read.
    static func decodeRegions(
        _ path: String, warnings: inout [InputError], each body: (consuming Region) -> Void
    ) throws(CommandError) -> InputError? {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw unreadable(path)
        }
        var kept = warnings
        let result = data.withUnsafeBytes { raw in
            Result { () throws(InputError) in
                try GeoJSONRegionDecoder.forEachRegion(in: raw.bindMemory(to: UInt8.self), warnings: &kept, body)
            }
        }
        warnings = kept
        // Unmapping a large file takes the kernel milliseconds: the caller has regions to go on with meanwhile.
        if data.count >= BackgroundRelease.minimumBytes { BackgroundRelease.release(consume data) }
        if case .failure(let error) = result { return error }
        return nil
    }

    /// Why `path` cannot be read, as exit 66, in the library's one wording (``InputReadError/unreadable(_:)``).
    static func unreadable(_ path: String) -> CommandError {
        CommandError(.inputMissing, InputReadError.unreadable(path).description)
    }

    /// Writes `text` to `path` (`-`: standard output) through ``OutputFile``: a regular file is replaced
    /// atomically, a device or FIFO written in place. - Throws: exit 74 when it cannot be written.
    static func write(_ text: String, to path: String, console: Console) throws(CommandError) {
        if path == "-" {
            console.out(text.hasSuffix("\n") ? text : text + "\n")
            return
        }
        do {
            try OutputFile.write(text, to: path)
        } catch {
            throw CommandError(.outputFailed, error.description)
        }
    }
}
