import Foundation
import GeofenceKit
import LocationRouter

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
        // GPX recordings can be hundreds of megabytes: they are streamed in chunks, never read whole.
        if isGPX(path) { return checkGPX(path: path) }
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
        case .geojson: result.checkRegions(bytes)
        case .samples: result.checkSamples(bytes)
        case .config: result.checkConfig(bytes)
        case .gpx: return checkGPX(path: path)  // not reached: streamed above
        case .unknown:
            result.errors = [InputError("unknown kind of file: expected .gpx, .geojson, .json, .ndjson, .jsonl or .csv")]
        }
        return result
    }

    static func isGPX(_ path: String) -> Bool { (path as NSString).pathExtension.lowercased() == "gpx" }

    /// The kind from the extension; a `.json` file is GeoJSON when its top-level `type` is `FeatureCollection`.
    static func kind(ofPath path: String, bytes: [UInt8]) -> Kind {
        switch (path as NSString).pathExtension.lowercased() {
        case "geojson": return .geojson
        case "ndjson", "jsonl", "csv": return .samples
        case "gpx": return .gpx
        case "json":
            if let value = try? JSONParser.parse(bytes), case .string("FeatureCollection")? = value["type"]?.kind {
                return .geojson
            }
            return .config
        default: return .unknown
        }
    }

    private mutating func checkRegions(_ bytes: [UInt8]) {
        do {
            let regions = try GeoJSONRegionDecoder.decode(bytes, warnings: &warnings)
            var circles = 0
            var polygons = 0
            for region in regions {
                if case .circle = region.geometry { circles += 1 } else { polygons += 1 }
            }
            facts = [("regions", "\(regions.count)"), ("circles", "\(circles)"), ("polygons", "\(polygons)")]
            summary = "\(regions.count) regions (\(circles) circles, \(polygons) polygons)"
        } catch {
            errors = [error]
        }
    }

    private mutating func checkConfig(_ bytes: [UInt8]) {
        var scenario = Scenario()
        do {
            try scenario.apply(configJSON: bytes)
            summary = "a valid scenario"
        } catch {
            errors = [error]
        }
    }

    private mutating func checkSamples(_ bytes: [UInt8]) {
        var splitter = LineSplitter()
        var format: SampleFormat?
        var header: CSVSampleHeader?
        var samples = 0
        var devices: [String: Int64] = [:]
        var first = Int64.max
        var last = Int64.min
        var pieces = splitter.lines(in: bytes)
        pieces += splitter.finish()
        for piece in pieces {
            switch piece {
            case .tooLong(let number):
                errors.append(InputError("line is longer than \(splitter.maxLineLength) bytes", line: number))
            case .line(let line, let number):
                if SampleDecoder.isBlank(line) { continue }
                let lineFormat = format ?? SampleFormat.detect(firstLine: line)
                format = lineFormat
                do {
                    let sample: LocationSample
                    if lineFormat == .csv {
                        guard let header else {
                            header = try CSVSampleHeader(line: line, lineNumber: number)
                            continue
                        }
                        sample = try SampleDecoder.decodeCSV(line: line, header: header, lineNumber: number)
                    } else {
                        sample = try SampleDecoder.decodeNDJSON(line: line, lineNumber: number)
                    }
                    let time = sample.time.microseconds
                    if let previous = devices[sample.device], time < previous {
                        errors.append(
                            InputError(
                                "older than the previous sample of device \"\(sample.device)\"", line: number,
                                field: "time"))
                        continue
                    }
                    devices[sample.device] = time
                    samples += 1
                    first = min(first, time)
                    last = max(last, time)
                } catch {
                    errors.append(error.error)
                }
            }
        }
        let span = samples > 0
            ? [("firstTime", "\"\(Timestamp(microseconds: first).iso8601)\""),
               ("lastTime", "\"\(Timestamp(microseconds: last).iso8601)\"")]
            : [("firstTime", "null"), ("lastTime", "null")]
        facts = [("format", "\"\(format.map { "\($0)" } ?? "unknown")\""), ("samples", "\(samples)"),
                 ("devices", "\(devices.count)"), ("badLines", "\(errors.count)")] + span
        summary = "\(samples) samples from \(devices.count) devices"
            + (samples > 0 ? ", \(Timestamp(microseconds: first).iso8601) to \(Timestamp(microseconds: last).iso8601)" : "")
            + (errors.isEmpty ? "" : ", \(errors.count) bad lines")
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
