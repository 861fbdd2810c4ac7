import Foundation
import TestSupport
import Testing
import GeofenceKit
@testable import location_router

/// Runs and checks with geometry across the antimeridian and around the poles: the geodesic answer, or a clear
/// refusal (exit 65, the feature and the reason named) — never a silent wrong event.
@Suite(.serialized) struct AntimeridianRunTests {
    static func features(_ features: String...) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    }

    static func polygon(_ id: String, _ rings: String) -> String {
        "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(rings)}}"
    }

    static func circle(_ id: String, _ longitude: Double, _ latitude: Double, radius: Double) -> String {
        "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(longitude),\(latitude)]},"
            + "\"properties\":{\"radius\":\(radius)}}"
    }

    @Test func aRouteAcrossTheAntimeridianFiresOnlyTheRegionsOnTheCrossing() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let regions = Self.features(
            Self.circle("crossing", 180, 10.005, radius: 300),
            Self.polygon("box", "[[[179.999,10.004],[-179.999,10.004],[-179.999,10.006],[179.999,10.006],[179.999,10.004]]]"),
            Self.circle("far-side", 0, 10, radius: 100_000),
            Self.polygon("far-box", "[[[-1,9],[1,9],[1,11],[-1,11],[-1,9]]]"))
        try regions.write(toFile: directory + "/regions.geojson", atomically: true, encoding: .utf8)
        let run = await runCommand([
            "--source", "route:10,179.99;10.01,-179.99", "--regions", directory + "/regions.geojson", "--devices", "1",
            "--speed", "10", "--events", directory + "/events.ndjson", "--no-report", "--quiet",
        ])
        #expect(run.status == .success, "\(run.err)")
        let events = try String(contentsOfFile: directory + "/events.ndjson", encoding: .utf8)
            .split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let fired = events.map { "\($0["event"] ?? "?") \($0["region"] ?? "?")" }
        #expect(fired == ["enter crossing", "enter box", "exit box", "exit crossing"], "\(fired)")
    }

    @Test func checkSaysWhatItDidWithAntimeridianAndPolarPolygons() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let regions = Self.features(
            Self.polygon("pacific", "[[[170,-10],[-170,-10],[-170,10],[170,10],[170,-10]]]"),
            Self.polygon("arctic", "[[[0,80],[90,80],[180,80],[-90,80],[0,80]]]"))
        try regions.write(toFile: directory + "/regions.geojson", atomically: true, encoding: .utf8)
        let run = await runCommand(["check", directory + "/regions.geojson"])
        #expect(run.status == .success, "\(run.out)")
        #expect(run.out.contains("features[0].geometry.coordinates[0]"), "\(run.out)")
        #expect(run.out.contains("split at ±180°"), "\(run.out)")
        #expect(run.out.contains("features[1].geometry.coordinates[0]"), "\(run.out)")
        #expect(run.out.contains("winds once around the North Pole"), "\(run.out)")
    }

    /// Many polygons across ±180° (the islands of Fiji): `run` prints the first warnings and how many more there
    /// are, not a line per polygon before its summary; `check` lists them all.
    @Test func aRunListsTheFirstRegionWarningsAndCountsTheRest() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let count = Files.maxPrintedRegionWarnings + 5
        let islands = (0..<count).map { k in
            let south = -17.0 + Double(k) * 0.01
            return Self.polygon("island-\(k)", "[[[179.999,\(south)],[-179.999,\(south)],[-179.999,\(south + 0.005)],[179.999,\(south + 0.005)],[179.999,\(south)]]]")
        }
        try "{\"type\":\"FeatureCollection\",\"features\":[\(islands.joined(separator: ","))]}"
            .write(toFile: directory + "/fiji.geojson", atomically: true, encoding: .utf8)
        let run = await runCommand([
            "--regions", directory + "/fiji.geojson", "--devices", "1", "--duration", "1", "--no-events", "--no-report",
            "--quiet",
        ])
        #expect(run.status == .success, "\(run.err)")
        let lines = run.err.split(separator: "\n")
        #expect(lines.filter { $0.contains("split at ±180°") }.count == Files.maxPrintedRegionWarnings, "\(run.err)")
        #expect(lines.contains("warning: \(directory)/fiji.geojson: 5 more warnings are not listed (location-router check \(directory)/fiji.geojson lists them all)"), "\(run.err)")
        let check = await runCommand(["check", directory + "/fiji.geojson"])
        #expect(check.out.split(separator: "\n").filter { $0.contains("split at ±180°") }.count == count, "\(check.out)")
    }

    @Test func anAmbiguousRingIsRefusedWithExit65() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let regions = Self.features(
            Self.circle("fine", 10, 10, radius: 100),
            Self.polygon("belt", "[[[0,-10],[120,10],[-120,-10],[0,-10]]]"))
        try regions.write(toFile: directory + "/regions.geojson", atomically: true, encoding: .utf8)
        let check = await runCommand(["check", directory + "/regions.geojson"])
        #expect(check.status == .invalidInput)
        #expect(check.out.contains("features[1].geometry.coordinates[0]"), "\(check.out)")
        #expect(check.out.contains("crosses the equator"), "\(check.out)")
        let run = await runCommand([
            "--regions", directory + "/regions.geojson", "--devices", "1", "--duration", "1", "--no-events",
            "--no-report", "--quiet",
        ])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("features[1].geometry.coordinates[0]"), "\(run.err)")
    }

    @Test(arguments: [[89.0, 0.0], [0, 180], [-89.9, -179.9]])
    func aRandomWalkNearAPoleOrOnTheAntimeridianRunsWithinItsArea(center: [Double]) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = """
            {"source": {"center": {"lat": \(center[0]), "lon": \(center[1])}, "areaRadius": 3000}}
            """
        try config.write(toFile: directory + "/config.json", atomically: true, encoding: .utf8)
        let run = await runCommand([
            "--config", directory + "/config.json", "--devices", "50", "--duration", "300",
            "--events", directory + "/events.ndjson", "--no-report", "--quiet",
        ])
        #expect(run.status == .success, "\(run.err)")
        let lines = try String(contentsOfFile: directory + "/events.ndjson", encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 50, "the devices cross their regions")
        for line in lines {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let latitude = try #require(event["lat"] as? Double), longitude = try #require(event["lon"] as? Double)
            let fromCenter = Geodesic.distance(
                latitude1: center[0], longitude1: center[1], latitude2: latitude, longitude2: longitude)
            #expect(fromCenter < 3_000 * 1.005 + 70, "an event \(fromCenter) m from the centre")
        }
    }
}
