import Foundation
import GeofenceKit
import LocationRouter
import GeofenceFormats

/// What `check` found in one file: its kind, whether it is valid, its errors and warnings, and facts about it.
struct FileCheck {
    enum Kind: String {
        case geojson, samples, config, gpx, unknown
    }

    var file: String
    var kind: Kind
    var errors: [InputError] = []
    var warnings: [InputError] = []
    /// Kind-specific facts, as JSON values, in output order.
    var facts: [(key: String, json: String)] = []
    /// One line for humans.
    var summary = ""
    var missing = false

    var valid: Bool { errors.isEmpty && !missing }

    static func check(path: String) -> FileCheck {
        // GPX recordings and sample files can be hundreds of megabytes: they are streamed in chunks, never read
        // whole, so that checking any file costs a few megabytes.
        if isGPX(path) { return checkGPX(path: path) }
        if isSamples(path) { return checkSamples(path: path) }
        // Regions files are mapped and decoded feature by feature (see Files.regions).
        if (path as NSString).pathExtension.lowercased() == "geojson" { return checkRegions(path: path) }
        let bytes: [UInt8]
        do {
            bytes = try Files.read(path)
        } catch {
            var result = FileCheck(file: path, kind: kind(ofPath: path, bytes: []))
            result.missing = true
            result.errors = [InputError(error.message.replacingOccurrences(of: "\(path): ", with: ""))]
            return result
        }
        let kind = kind(ofPath: path, bytes: bytes)
        var result = FileCheck(file: path, kind: kind)
        switch kind {
        case .geojson: return checkRegions(path: path)
        case .config: result.checkConfig(bytes)
        case .gpx: return checkGPX(path: path)  // not reached: streamed above
        case .samples: return checkSamples(path: path)  // not reached: streamed above
        case .unknown:
            result.errors = [InputError("unknown kind of file: expected .gpx, .geojson, .json, .ndjson, .jsonl or .csv")]
        }
        return result
    }

    static func isGPX(_ path: String) -> Bool { (path as NSString).pathExtension.lowercased() == "gpx" }

    static func isSamples(_ path: String) -> Bool { kind(ofPath: path, bytes: []) == .samples }

    /// The kind from the extension; a `.json` file is GeoJSON when its top-level `type` is `FeatureCollection`.
    static func kind(ofPath path: String, bytes: [UInt8]) -> Kind {
        switch (path as NSString).pathExtension.lowercased() {
        case "geojson": return .geojson
        case "ndjson", "jsonl", "csv": return .samples
        case "gpx": return .gpx
        case "json":
            // The features are skipped one by one, never held: only the top level's `type` matters here.
            let root = bytes.withUnsafeBufferPointer { buffer in
                try? JSONParser.parse(buffer, streaming: "features") { _, _ in }
            }
            if case .string("FeatureCollection")? = root?["type"]?.kind { return .geojson }
            return .config
        default: return .unknown
        }
    }

    /// Checks a regions file, counting its regions as they are decoded (none is kept); its shared catalog is
    /// measured against `limit` under `selection` (see ``warnAboutCatalog(shared:ownCounts:limit:selection:)``).
    private static func checkRegions(
        path: String, limit: Int = FileCheck.smallestSlotLimit, selection: SelectionStrategy? = nil
    ) -> FileCheck {
        var result = FileCheck(file: path, kind: .geojson)
        var circles = 0
        var polygons = 0
        var shared = 0
        var own: [String: Int] = [:]
        do {
            let failure = try Files.decodeRegions(path, warnings: &result.warnings) { region in
                if case .circle = region.geometry { circles += 1 } else { polygons += 1 }
                if let devices = region.devices {
                    for device in devices { own[device, default: 0] += 1 }
                } else {
                    shared += 1
                }
            }
            if let failure {
                result.errors = [failure]
                return result
            }
        } catch {
            result.markMissing(error, path: path)
            return result
        }
        let count = circles + polygons
        result.facts = [
            ("regions", "\(count)"), ("circles", "\(circles)"), ("polygons", "\(polygons)"), ("shared", "\(shared)"),
        ]
        result.summary = "\(count) regions (\(circles) circles, \(polygons) polygons)"
        result.warnAboutCatalog(
            shared: shared, ownCounts: own.map { ($0.key, $0.value) }, limit: limit, selection: selection)
        return result
    }

    private mutating func checkConfig(_ bytes: [UInt8]) {
        var scenario = Scenario()
        do {
            try scenario.apply(configJSON: bytes)
            summary = "a valid scenario"
            warnAboutCatalog(in: scenario)
        } catch {
            errors = [error]
            return
        }
        if let regionsFile = scenario.regionsFile { checkRegionsFile(regionsFile, of: scenario) }
    }

    /// The regions file a config names (`regions.file`, as `run` finds it: relative to the working directory),
    /// checked as a regions file is, its catalog against the config's profile and selection: its errors, its
    /// warnings, and missing (exit 66) when it cannot be read.
    private mutating func checkRegionsFile(_ path: String, of scenario: Scenario) {
        let regions = Self.checkRegions(
            path: path, limit: scenario.settings.slotLimit, selection: scenario.selection.strategy)
        // Named by the regions file, keeping their lines and columns there.
        func named(_ error: InputError) -> InputError { error.file == nil ? error.in(file: path) : error }
        errors += regions.errors.map(named)
        warnings += regions.warnings.map(named)
        missing = missing || regions.missing
        summary =
            regions.valid
            ? summary + " (regions.file \(path): \(regions.summary))" : "a scenario whose regions.file cannot be used"
    }

    /// The file's chunks, or `nil` with `result` marked missing (exit 66) when it cannot be opened.
    static func openChunks(_ path: String, marking result: inout FileCheck) -> ChunkedFileReader? {
        do {
            return try ChunkedFileReader(path: path)
        } catch {
            result.markMissing(error)
            return nil
        }
    }

    /// Checks a sample file line by line as `run` reads it, streaming it in 1 MiB chunks: a line over the limit
    /// is an error, never held in memory. A CSV header that cannot be read ends the check, as it ends a run.
    static func checkSamples(path: String) -> FileCheck {
        var result = FileCheck(file: path, kind: .samples)
        guard let chunks = openChunks(path, marking: &result) else { return result }
        var reader = SampleFileCheck()
        var splitter = LineSplitter()
        while !reader.stopped {
            let chunk: [UInt8]?
            do {
                chunk = try chunks.next()
            } catch {
                result.markMissing(error)
                return result
            }
            guard let chunk else { break }
            reader.take(splitter.lines(in: chunk), maxLineLength: splitter.maxLineLength)
        }
        if !reader.stopped { reader.take(splitter.finish(), maxLineLength: splitter.maxLineLength) }
        result.errors = reader.errors
        (result.facts, result.summary) = reader.facts
        return result
    }

    var humanText: String {
        var text = "\(file): \(kind.rawValue), " + (valid ? "valid" : "INVALID") + (summary.isEmpty ? "" : ": \(summary)") + "\n"
        for error in errors { text += "  error: \(error)\n" }
        for warning in warnings { text += "  warning: \(warning)\n" }
        return text
    }

    var json: String {
        var pairs: [(String, String)] = [
            ("file", EventEncoder.jsonLiteral(file)), ("kind", EventEncoder.jsonLiteral(kind.rawValue)), ("valid", valid ? "true" : "false"),
            ("errors", "[" + errors.map { $0.json(includingFile: false) }.joined(separator: ",") + "]"),
            ("warnings", "[" + warnings.map { $0.json(includingFile: false) }.joined(separator: ",") + "]"),
        ]
        pairs += facts.map { ($0.key, $0.json) }
        return "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// The state of a sample file being checked: what `check` reports about it, built line by line.
private struct SampleFileCheck {
    var errors: [InputError] = []
    /// Whether reading has ended early (a CSV file without a readable header).
    private(set) var stopped = false
    private var format: SampleFormat?
    private var header: CSVSampleHeader?
    private var samples = 0
    private var devices: [ExactName: Int64] = [:]
    private var first = Int64.max
    private var last = Int64.min

    mutating func take(_ pieces: [LineSplitter.Piece], maxLineLength: Int) {
        for piece in pieces where !stopped {
            switch piece {
            case .tooLong(let number):
                if format != .ndjson && header == nil {
                    // The header (or the line that tells the format) cannot be read: neither can the rest.
                    errors.append(
                        InputError(
                            "the first line (a CSV header, or the line that tells the format) is longer than "
                                + "\(maxLineLength) bytes", line: number))
                    stopped = true
                } else {
                    errors.append(InputError("line is longer than \(maxLineLength) bytes", line: number))
                }
            case .line(let line, let number):
                take(line, number: number)
            }
        }
    }

    private mutating func take(_ line: ArraySlice<UInt8>, number: Int) {
        if SampleDecoder.isBlank(line) { return }
        let lineFormat = format ?? SampleFormat.detect(firstLine: line)
        format = lineFormat
        let sample: LocationSample
        do {
            if lineFormat == .csv {
                guard let header else {
                    do {
                        header = try CSVSampleHeader(line: line, lineNumber: number)
                    } catch {
                        // Without a header no row can be read: the rest of the file is not looked at.
                        errors.append(error.error)
                        stopped = true
                    }
                    return
                }
                sample = try SampleDecoder.decodeCSV(line: line, header: header, lineNumber: number)
            } else {
                sample = try SampleDecoder.decodeNDJSON(line: line, lineNumber: number)
            }
        } catch {
            errors.append(error.error)
            return
        }
        let time = sample.time.microseconds
        if let previous = devices[ExactName(sample.device)], time < previous {
            errors.append(
                InputError("older than the previous sample of device \"\(sample.device)\"", line: number, field: "time"))
            return
        }
        devices[ExactName(sample.device)] = time
        samples += 1
        first = min(first, time)
        last = max(last, time)
    }

    /// The facts for `--json`, and the summary line.
    var facts: ([(key: String, json: String)], String) {
        let span = samples > 0
            ? [("firstTime", "\"\(Timestamp(microseconds: first).iso8601)\""),
               ("lastTime", "\"\(Timestamp(microseconds: last).iso8601)\"")]
            : [("firstTime", "null"), ("lastTime", "null")]
        let facts = [("format", "\"\(format.map { "\($0)" } ?? "unknown")\""), ("samples", "\(samples)"),
                     ("devices", "\(devices.count)"), ("badLines", "\(errors.count)")] + span
        let summary = "\(samples) samples from \(devices.count) devices"
            + (samples > 0 ? ", \(Timestamp(microseconds: first).iso8601) to \(Timestamp(microseconds: last).iso8601)" : "")
            + (errors.isEmpty ? "" : ", \(errors.count) bad lines")
        return (facts, summary)
    }
}
