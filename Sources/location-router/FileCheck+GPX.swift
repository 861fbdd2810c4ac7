import GeofenceKit
import LocationRouter
import GeofenceFormats

extension FileCheck {
    /// At most this many errors, and as many warnings, are listed per GPX file; a last entry counts the rest. A
    /// damaged 200 MB recording could otherwise print millions of lines and hold them all in memory.
    static let maxListedGPXIssues = 1_000

    /// Checks a GPX file, streaming it in 1 MiB chunks so that its size never matters.
    ///
    /// Facts are those of docs/interfaces.md: `version`, the counts (including refused points, which are also listed
    /// as errors), `bounds` of the valid points, and the first and last valid track points. After a fatal error
    /// (not XML, truncated…) the counts are those read before it.
    static func checkGPX(path: String) -> FileCheck {
        var result = FileCheck(file: path, kind: .gpx)
        guard let chunks = openChunks(path, marking: &result) else { return result }
        var reader = GPXReader()
        var summary = GPXSummary()
        var events: [GPXEvent] = []
        var issues = IssueList()
        var fatal: InputError?
        while true {
            let chunk: [UInt8]?
            do {
                chunk = try chunks.next()
            } catch {
                result.markMissing(error)
                return result
            }
            do {
                if let chunk {
                    try reader.feed(chunk, into: &events)
                } else {
                    try reader.finish(into: &events)
                }
            } catch {
                fatal = error
            }
            for event in events {
                summary.add(event)
                switch event {
                case .invalidPoint(_, let error): issues.add(error: error)
                case .warning(let warning): issues.add(warning: warning)
                default: break
                }
            }
            events.removeAll(keepingCapacity: true)
            if fatal != nil || chunk == nil { break }
        }
        if let first = summary.sampledEarliestTime, let last = summary.sampledLatestTime,
            let refusal = Trace.timeSpanRefusal(first: first, last: last)
        {
            issues.add(error: InputError(refusal))
        }
        if fatal == nil, summary.bounds == nil {
            // Valid GPX all the same (its counts are the file's), but nothing `--source gpx:` can play.
            issues.add(warning: InputError(GPXTraceFile.noPlayablePoint + ": --source gpx: refuses this file"))
        }
        result.errors = issues.errors(ending: fatal)
        result.warnings = issues.warnings()
        result.facts = gpxFacts(summary)
        result.summary = gpxSummaryLine(summary)
        return result
    }

    /// Errors and warnings as they are found, keeping the first ``maxListedGPXIssues`` of each.
    private struct IssueList {
        private var listedErrors: [InputError] = []
        private var listedWarnings: [InputError] = []
        private var unlistedErrors = 0
        private var unlistedWarnings = 0

        mutating func add(error: InputError) {
            if listedErrors.count < maxListedGPXIssues { listedErrors.append(error) } else { unlistedErrors += 1 }
        }

        mutating func add(warning: InputError) {
            if listedWarnings.count < maxListedGPXIssues { listedWarnings.append(warning) } else { unlistedWarnings += 1 }
        }

        func errors(ending fatal: InputError?) -> [InputError] {
            var errors = listedErrors
            if unlistedErrors > 0 { errors.append(InputError("\(unlistedErrors) more refused points are not listed")) }
            if let fatal { errors.append(fatal) }
            return errors
        }

        func warnings() -> [InputError] {
            listedWarnings + (unlistedWarnings > 0 ? [InputError("\(unlistedWarnings) more warnings are not listed")] : [])
        }
    }

    mutating func markMissing(_ error: CommandError, path: String) {
        missing = true
        errors = [InputError(error.message.replacingOccurrences(of: "\(path): ", with: ""))]
    }

    /// Marks the file missing (exit 66) with the reason only: the check's entry names the file already.
    mutating func markMissing(_ error: InputReadError) {
        missing = true
        errors = [InputError(error.message)]
    }

    private static func gpxFacts(_ summary: GPXSummary) -> [(key: String, json: String)] {
        func point(_ point: GPXPoint?) -> String {
            guard let point else { return "null" }
            let time = point.time.map { "\"\($0.iso8601)\"" } ?? "null"
            return "{\"lat\":\(point.latitude),\"lon\":\(point.longitude),\"time\":\(time)}"
        }
        // The earliest and latest time of any point (tracks, routes, waypoints): what a playback spans.
        var timeSpan: String?
        if let earliest = summary.earliestTime, let latest = summary.latestTime {
            let seconds = Double(latest.microseconds - earliest.microseconds) / 1e6
            timeSpan = "{\"first\":\"\(earliest.iso8601)\",\"last\":\"\(latest.iso8601)\",\"seconds\":\(seconds)}"
        }
        let bounds = summary.bounds.map {
            "{\"minLat\":\($0.minLatitude),\"minLon\":\($0.minLongitude),\"maxLat\":\($0.maxLatitude),\"maxLon\":\($0.maxLongitude)}"
        }
        return [
            ("version", summary.version.map(EventEncoder.jsonLiteral) ?? "null"),
            ("tracks", "\(summary.tracks)"), ("segments", "\(summary.segments)"),
            ("trackPoints", "\(summary.trackPoints)"), ("timedTrackPoints", "\(summary.timedTrackPoints)"),
            ("waypoints", "\(summary.waypoints)"), ("routes", "\(summary.routes)"),
            ("routePoints", "\(summary.routePoints)"), ("bounds", bounds ?? "null"),
            ("firstTrackPoint", point(summary.firstTrackPoint)), ("lastTrackPoint", point(summary.lastTrackPoint)),
            ("timeSpan", timeSpan ?? "null"),
        ]
    }

    private static func gpxSummaryLine(_ summary: GPXSummary) -> String {
        func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
        var line = "GPX \(summary.version ?? "(no version)"): \(count(summary.tracks, "track")), "
            + "\(count(summary.segments, "segment")), \(count(summary.trackPoints, "track point")) "
            + "(\(summary.timedTrackPoints) timed), \(count(summary.waypoints, "waypoint")), "
            + "\(count(summary.routes, "route")), \(count(summary.routePoints, "route point"))"
        if let earliest = summary.earliestTime, let latest = summary.latestTime {
            line += ", \(earliest.iso8601) to \(latest.iso8601)"
        }
        if summary.invalidPoints > 0 { line += ", \(count(summary.invalidPoints, "point")) refused" }
        return line
    }
}
