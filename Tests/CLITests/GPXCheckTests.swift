import Foundation
import TestSupport
import Testing
@testable import location_router

@Suite struct GPXCheckTests {
    /// The facts of one real GPX file, as an independent parser (gpxpy 1.6.2) computed them.
    struct ManifestFacts: Sendable, CustomStringConvertible {
        var file: String
        var version: String?
        var tracks: Int
        var segments: Int
        var trackPoints: Int
        var timedTrackPoints: Int
        var waypoints: Int
        var routePoints: Int

        var description: String { file }
    }

    /// Every file that Fixtures/gpx/MANIFEST.md (copied from the project's shared GPX test data) gives facts for, with
    /// exactly its "facts (gpxpy)" column: version; trk, seg, trkpt (timed), wpt, rtept. The three files gpxpy
    /// fails on are tested separately below.
    static let manifest: [ManifestFacts] = [
        .init(file: "gpxpy__cerknicko-jezero.gpx", version: "1.0", tracks: 8, segments: 8, trackPoints: 296, timedTrackPoints: 296, waypoints: 7, routePoints: 0),
        .init(file: "gpxpy__korita-zbevnica.gpx", version: "1.0", tracks: 4, segments: 4, trackPoints: 871, timedTrackPoints: 513, waypoints: 2, routePoints: 0),
        .init(file: "gpxpy__route.gpx", version: "1.0", tracks: 0, segments: 0, trackPoints: 0, timedTrackPoints: 0, waypoints: 0, routePoints: 55),
        .init(file: "gpxpy__track-with-empty-segment.gpx", version: "1.1", tracks: 1, segments: 2, trackPoints: 9, timedTrackPoints: 9, waypoints: 0, routePoints: 0),
        .init(file: "gpxpy__gpx1.0_with_all_fields.gpx", version: "1.0", tracks: 2, segments: 2, trackPoints: 1, timedTrackPoints: 1, waypoints: 2, routePoints: 5),
        .init(file: "gpxpy__gpx1.1_with_all_fields.gpx", version: "1.1", tracks: 2, segments: 2, trackPoints: 1, timedTrackPoints: 1, waypoints: 2, routePoints: 5),
        .init(file: "gpxpy__gpx1.1_with_extensions.gpx", version: "1.1", tracks: 0, segments: 0, trackPoints: 0, timedTrackPoints: 0, waypoints: 1, routePoints: 0),
        .init(file: "gpxpy__unicode_with_bom.gpx", version: nil, tracks: 0, segments: 0, trackPoints: 0, timedTrackPoints: 0, waypoints: 1, routePoints: 0),
        .init(file: "gpxpy__track_with_speed.gpx", version: nil, tracks: 1, segments: 1, trackPoints: 3, timedTrackPoints: 3, waypoints: 0, routePoints: 0),
        .init(file: "gpxgo__iso8859-1encoded.gpx", version: "1.0", tracks: 0, segments: 0, trackPoints: 0, timedTrackPoints: 0, waypoints: 8, routePoints: 0),
        .init(file: "gpxgo__gpx-without-root-attributes.gpx", version: nil, tracks: 1, segments: 1, trackPoints: 1, timedTrackPoints: 1, waypoints: 0, routePoints: 0),
        .init(file: "gpxgo__gpx-without-xml-declaration.gpx", version: nil, tracks: 1, segments: 1, trackPoints: 1, timedTrackPoints: 1, waypoints: 0, routePoints: 0),
        .init(file: "gpxgo__visnjan.gpx", version: "1.0", tracks: 1, segments: 1, trackPoints: 413, timedTrackPoints: 413, waypoints: 2, routePoints: 0),
        .init(file: "gpxstudio__with_tracks_and_segments.gpx", version: "1.1", tracks: 2, segments: 4, trackPoints: 79, timedTrackPoints: 79, waypoints: 0, routePoints: 0),
        .init(file: "gpxstudio__with_routes.gpx", version: "1.1", tracks: 0, segments: 0, trackPoints: 0, timedTrackPoints: 0, waypoints: 0, routePoints: 77),
        .init(file: "georust__garmin_with_extensions.gpx", version: "1.1", tracks: 1, segments: 2, trackPoints: 3540, timedTrackPoints: 3540, waypoints: 0, routePoints: 0),
        .init(file: "georust__caltopo-export.gpx", version: "1.1", tracks: 2, segments: 2, trackPoints: 6, timedTrackPoints: 6, waypoints: 0, routePoints: 0),
        .init(file: "georust__strava_route_example.gpx", version: "1.1", tracks: 1, segments: 1, trackPoints: 113, timedTrackPoints: 0, waypoints: 0, routePoints: 0),
        .init(file: "togeojson__empty_trk.gpx", version: "1.1", tracks: 1, segments: 1, trackPoints: 0, timedTrackPoints: 0, waypoints: 0, routePoints: 0),
        .init(file: "togeojson__opencpn.gpx", version: "1.1", tracks: 0, segments: 0, trackPoints: 0, timedTrackPoints: 0, waypoints: 0, routePoints: 16),
        .init(file: "togeojson__osm.gpx", version: "1.0", tracks: 3, segments: 3, trackPoints: 420, timedTrackPoints: 175, waypoints: 0, routePoints: 0),
        .init(file: "coregpx__GPXTest-TrackPointOnly.gpx", version: "1.1", tracks: 1, segments: 1, trackPoints: 4142, timedTrackPoints: 4142, waypoints: 0, routePoints: 0),
        .init(file: "oba__boston.gpx", version: "1.1", tracks: 0, segments: 0, trackPoints: 0, timedTrackPoints: 0, waypoints: 1, routePoints: 0),
        .init(file: "oba__invalid.gpx", version: "1.1", tracks: 0, segments: 0, trackPoints: 0, timedTrackPoints: 0, waypoints: 1, routePoints: 0),
    ]

    /// The `check --json` object of one file, and the exit status.
    static func check(_ path: String) async throws -> (object: [String: Any], status: ExitCode) {
        let run = await runCommand(["check", "--json", path])
        let objects = try CheckCommandTests.objects(run.out)
        #expect(objects.count == 1, "\(run.out)")
        return (try #require(objects.first), run.status)
    }

    /// A file of Fixtures/gpx.
    func gpxFixture(_ name: String) -> String {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/gpx")?.path ?? "missing-fixture-\(name)"
    }

    static func errors(_ object: [String: Any]) -> [[String: Any]] { object["errors"] as? [[String: Any]] ?? [] }

    @Test(arguments: manifest)
    func everyManifestFileIsReportedWithTheManifestsFacts(_ facts: ManifestFacts) async throws {
        let (object, status) = try await Self.check(gpxFixture(facts.file))
        #expect(status == .success)
        #expect(object["kind"] as? String == "gpx")
        #expect(object["valid"] as? Bool == true)
        #expect(Self.errors(object).isEmpty, "\(Self.errors(object))")
        #expect(object["version"] as? String == facts.version)
        if facts.version == nil { #expect(object["version"] is NSNull) }
        #expect(object["tracks"] as? Int == facts.tracks)
        #expect(object["segments"] as? Int == facts.segments)
        #expect(object["trackPoints"] as? Int == facts.trackPoints)
        #expect(object["timedTrackPoints"] as? Int == facts.timedTrackPoints)
        #expect(object["waypoints"] as? Int == facts.waypoints)
        #expect(object["routePoints"] as? Int == facts.routePoints)
        #expect(object["routes"] is Int)
        #expect((object["bounds"] is NSNull) == (facts.trackPoints + facts.waypoints + facts.routePoints == 0))
        // Valid, yet with nothing to play: said, in the words `run --source gpx:` refuses it with.
        let warnings = (object["warnings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(warnings.contains { $0.hasPrefix("no playable point") } == (object["bounds"] is NSNull), "\(warnings)")
        #expect((object["firstTrackPoint"] is NSNull) == (facts.trackPoints == 0))
        #expect((object["lastTrackPoint"] is NSNull) == (facts.trackPoints == 0))
    }

    @Test func theFirstAndLastTrackPointsAndBoundsAreThoseOfTheFile() async throws {
        let (speed, _) = try await Self.check(gpxFixture("gpxpy__track_with_speed.gpx"))
        let first = try #require(speed["firstTrackPoint"] as? [String: Any])
        let last = try #require(speed["lastTrackPoint"] as? [String: Any])
        #expect(first["lat"] as? Double == 52.330848 && first["lon"] as? Double == 5.541371)
        #expect(first["time"] as? String == "2009-03-02T14:05:52Z")
        #expect(last["lat"] as? Double == 52.331014 && last["lon"] as? Double == 5.541333)
        #expect(last["time"] as? String == "2009-03-02T14:06:05Z")
        let bounds = try #require(speed["bounds"] as? [String: Double])
        #expect(bounds == ["minLat": 52.330848, "minLon": 5.541333, "maxLat": 52.331014, "maxLon": 5.541371])
        let span = try #require(speed["timeSpan"] as? [String: Any])
        #expect(span["first"] as? String == "2009-03-02T14:05:52Z" && span["last"] as? String == "2009-03-02T14:06:05Z")
        #expect(span["seconds"] as? Double == 13)

        // A time from 1901 with seven fraction digits, rounded to the microsecond.
        let (old, _) = try await Self.check(gpxFixture("gpxgo__gpx-without-root-attributes.gpx"))
        #expect((old["firstTrackPoint"] as? [String: Any])?["time"] as? String == "1901-12-13T20:45:52.207344Z")
        // An untimed track: the points are there, their time is null.
        let (strava, _) = try await Self.check(gpxFixture("georust__strava_route_example.gpx"))
        #expect((strava["lastTrackPoint"] as? [String: Any])?["time"] is NSNull)
        #expect((strava["lastTrackPoint"] as? [String: Any])?["lat"] is Double)
    }

    @Test func routesAreCounted() async throws {
        #expect(try await Self.check(gpxFixture("gpxstudio__with_routes.gpx")).object["routes"] as? Int == 2)
        #expect(try await Self.check(gpxFixture("gpxpy__gpx1.1_with_all_fields.gpx")).object["routes"] as? Int == 2)
        #expect(try await Self.check(gpxFixture("gpxpy__route.gpx")).object["routes"] as? Int == 1)
    }

    /// togeojson's bad.gpx: well-formed XML whose coordinates are "undefined", "x" and "y". Every refused point is
    /// an error naming its line, column and element; the counts still include them.
    @Test func badCoordinatesAreListedWithLineColumnAndElement() async throws {
        let (object, status) = try await Self.check(gpxFixture("togeojson__bad.gpx"))
        #expect(status == .invalidInput)
        #expect(object["valid"] as? Bool == false)
        let errors = Self.errors(object)
        #expect(errors.map { $0["line"] as? Int } == [5, 8, 13, 14, 18])
        #expect(errors.map { $0["column"] as? Int } == [14, 14, 24, 16, 12])
        let messages = errors.compactMap { $0["message"] as? String }
        #expect(messages[0] == #"trkpt.lat: "undefined" is not a number; trkpt.lon: "undefined" is not a number"#)
        #expect(messages[2].hasPrefix(#"wpt.lat: "undefined" is not a number"#))
        #expect(messages[3] == #"wpt.lat: "y" is not a number; wpt.lon: "x" is not a number"#)
        #expect(messages[4].hasPrefix(#"rtept.lat: "undefined" is not a number"#))
        let warnings = object["warnings"] as? [[String: Any]] ?? []
        #expect(warnings.count == 2)
        #expect((warnings.first?["message"] as? String)?.hasPrefix(#"rtept.ele: "bad data" is not a number"#) == true)
        // No point of it is valid: nothing to play.
        #expect((warnings.last?["message"] as? String)?.hasPrefix("no playable point") == true)
        #expect(object["trackPoints"] as? Int == 2 && object["waypoints"] as? Int == 2 && object["routePoints"] as? Int == 1)
        #expect(object["timedTrackPoints"] as? Int == 0)
        #expect(object["bounds"] is NSNull && object["firstTrackPoint"] is NSNull)
    }

    /// gpx.studio writes the prefix gpxpx: without declaring it (namespace-aware parsers such as gpxpy fail):
    /// the reader matches by local name and skips extensions, so the file reads as it was meant.
    @Test func anUndeclaredPrefixInExtensionsIsAccepted() async throws {
        let (object, status) = try await Self.check(gpxFixture("gpxstudio__with_power_2.gpx"))
        #expect(status == .success && object["valid"] as? Bool == true)
        #expect(object["version"] as? String == "1.1")
        #expect(object["tracks"] as? Int == 1 && object["segments"] as? Int == 1)
        #expect(object["trackPoints"] as? Int == 80 && object["timedTrackPoints"] as? Int == 0)
    }

    /// georust's with_accuracy.gpx has a <fix> value outside the schema's list: playback does not use it, so
    /// the file is valid.
    @Test func anInvalidFixValueIsIrrelevant() async throws {
        let (object, status) = try await Self.check(gpxFixture("georust__with_accuracy.gpx"))
        #expect(status == .success && object["valid"] as? Bool == true)
        #expect(object["trackPoints"] as? Int == 3 && object["timedTrackPoints"] as? Int == 3)
        #expect((object["lastTrackPoint"] as? [String: Any])?["time"] as? String == "2017-04-12T17:00:38Z")
    }

    static let brokenFiles: [(name: String, content: String, line: Int, column: Int, message: String)] = [
        ("not XML", "lat,lon,time\n25.0,121.5,2026-11-21T08:00:00Z\n", 1, 1, "not an XML document"),
        ("truncated", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>2026-11-21T08:00:00Z</time></trkpt>\n<trkpt lat=\"1\" lon=\"2\"><ti", 5, 24, "ends inside a tag"),
        ("unclosed elements", "<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"/>\n", 4, 1, "ends before </trkseg>"),
        ("DOCTYPE with ENTITY", "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY a \"aaaaaaaa\">]>\n<gpx>&a;</gpx>", 2, 1, "DOCTYPE"),
        ("latitude out of range", "<gpx>\n <wpt lat=\"91\" lon=\"2\"/>\n</gpx>", 2, 7, "wpt.lat: \"91\" is out of range (-90...90)"),
        ("NaN", "<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"NaN\"/></trkseg></trk></gpx>", 2, 16, "trkpt.lon: \"NaN\" is not a finite number"),
        ("not GPX", "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>", 1, 1, "not <gpx>"),
        ("Shift-JIS", "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><gpx/>", 1, 1, "encoding: \"Shift_JIS\" is not supported"),
    ]

    @Test(arguments: brokenFiles)
    func brokenFilesAreInvalidWithTheLineAndColumnOfTheError(name: String, content: String, line: Int, column: Int, message: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/broken.gpx"
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        let (object, status) = try await Self.check(path)
        #expect(status == .invalidInput, "\(name)")
        #expect(object["valid"] as? Bool == false)
        let error = try #require(Self.errors(object).last, "\(name)")
        #expect(error["line"] as? Int == line && error["column"] as? Int == column, "\(name): \(error)")
        #expect((error["message"] as? String)?.contains(message) == true, "\(name): \(error)")
    }

    @Test func humanOutputSummarisesTheFile() async {
        let run = await runCommand(["check", gpxFixture("gpxstudio__with_tracks_and_segments.gpx"), gpxFixture("togeojson__bad.gpx")])
        #expect(run.status == .invalidInput)
        #expect(run.out.contains("gpxstudio__with_tracks_and_segments.gpx: gpx, valid: GPX 1.1: 2 tracks, 4 segments, 79 track points (79 timed), 0 waypoints, 0 routes, 0 route points, 2023-"))
        #expect(run.out.contains("togeojson__bad.gpx: gpx, INVALID"))
        #expect(run.out.contains("5 points refused"))
        #expect(run.out.contains("error: line 14:16: wpt.lat: \"y\" is not a number"))
    }

    @Test func aMissingGPXFileExits66() async throws {
        let run = await runCommand(["check", "--json", "/nonexistent/track.gpx"])
        #expect(run.status == .inputMissing)
        let object = try #require(try CheckCommandTests.objects(run.out).first)
        #expect(object["kind"] as? String == "gpx")
        #expect((Self.errors(object).first?["message"] as? String) == "no such file")
    }
}
