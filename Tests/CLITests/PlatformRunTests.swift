import Foundation
import TestSupport
import Testing
@testable import location_router

/// Issue 14 from the command line: delivery delays, CLMonitor, polygons, Android transition types and visits.
@Suite struct PlatformRunTests {
    static let start = 1_795_248_000

    static func circle(_ id: String, lat: Double = 25, lon: Double = 121, radius: Double = 500, properties: String = "") -> String {
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"radius":\#(radius)\#(properties)}}"#
    }

    static func regions(_ features: [String], in directory: String) throws -> String {
        let path = directory + "/regions.geojson"
        try #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func events(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func seconds(_ text: Any?) throws -> Double {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let string = try #require(text as? String)
        let plain = ISO8601DateFormatter()
        return try #require(formatter.date(from: string) ?? plain.date(from: string)).timeIntervalSince1970
    }

    @Test func delaysFollowTheConfiguredDistribution() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let regions = try Self.regions([Self.circle("stop")], in: directory)
        // 3,000 devices, each entering the circle once: no event waits behind another of its device.
        var samples = ""
        for device in 0..<3_000 {
            samples += #"{"device":"d\#(device)","lat":25.05,"lon":121,"time":\#(Self.start + device)}"# + "\n"
            samples += #"{"device":"d\#(device)","lat":25,"lon":121,"time":\#(Self.start + device + 10)}"# + "\n"
        }
        let run = try runExecutable(
            ["--source", "stdin", "--regions", regions, "--delivery", "lognormal:180,300", "--events", directory + "/e.ndjson",
             "--report", directory + "/r.json", "--quiet"], stdin: samples)
        #expect(run.status == 0, "\(run.err)")
        let events = try Self.events(directory + "/e.ndjson")
        #expect(events.count == 3_000)
        let delays = try events.map { try Self.seconds($0["time"]) - Self.seconds($0["detectedAt"]) }.sorted()
        let median = delays[delays.count / 2], p95 = delays[Int(Double(delays.count) * 0.95)]
        #expect(abs(median / 180 - 1) < 0.05, "median \(median)")
        #expect(abs(p95 / 300 - 1) < 0.05, "p95 \(p95)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/r.json"))) as? [String: Any])
        let delivery = try #require(report["delivery"] as? [String: Any])
        #expect(delivery["delayed"] as? Int == 3_000 && delivery["heldBack"] as? Int == 0)
        let reported = try #require((delivery["delaySeconds"] as? [String: Any])?["p50"] as? Double)
        #expect(abs(reported - median) / median < 0.01)
    }

    @Test func clmonitorRefusesThe21stConditionAndPolygons() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var features = (0..<21).map { Self.circle("c\($0)", radius: 1_000 + Double($0)) }
        features.insert(
            #"{"type":"Feature","id":"zone","geometry":{"type":"Polygon","coordinates":[[[121,25],[121.01,25],[121.01,25.01],[121,25]]]}}"#,
            at: 0)
        let regions = try Self.regions(features, in: directory)
        let run = try runExecutable(
            ["--source", "stdin", "--regions", regions, "--profile", "clmonitor", "--events", directory + "/e.ndjson",
             "--no-report", "--quiet"],
            stdin: #"{"device":"phone","lat":25,"lon":121,"time":\#(Self.start)}"# + "\n")
        #expect(run.status == 0, "\(run.err)")
        let events = try Self.events(directory + "/e.ndjson")
        let states = events.filter { $0["event"] as? String == "state" }
        #expect(states.count == 20 && states.allSatisfy { $0["state"] as? String == "satisfied" })
        let failed = events.filter { $0["event"] as? String == "failed" }
        #expect(failed.map { $0["region"] as? String } == ["zone", "c20"])
        #expect(failed.map { $0["reason"] as? String } == ["unsupportedShape", "conditionLimitExceeded"])
        #expect(failed.allSatisfy { $0["state"] as? String == "unmonitored" })
    }

    @Test func androidDwellsOnlyWhereTheTransitionTypesAsk() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let regions = try Self.regions(
            [Self.circle("lounge", properties: #","transitionTypes":["enter","dwell"],"loiteringDelay":60"#),
             Self.circle("hall", properties: #","loiteringDelay":60"#)], in: directory)
        var samples = ""
        for (offset, lat) in [(0, 25.05), (10, 25.0), (200, 25.0), (210, 25.05)] {
            samples += #"{"device":"p","lat":\#(lat),"lon":121,"time":\#(Self.start + offset),"accuracy":5}"# + "\n"
        }
        let run = try runExecutable(
            ["--source", "stdin", "--regions", regions, "--profile", "android", "--delivery", "instant",
             "--events", directory + "/e.ndjson", "--no-report", "--quiet"], stdin: samples)
        #expect(run.status == 0, "\(run.err)")
        let events = try Self.events(directory + "/e.ndjson").map { "\($0["event"] ?? "")@\($0["region"] ?? "")" }
        #expect(events == ["enter@lounge", "enter@hall", "dwell@lounge", "exit@hall"])
    }

    @Test func visitsOccurAtSeededStops() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var visits: [Int] = []
        for extra in [[], ["--visits"]] {
            let run = await runCommand(
                ["--devices", "20", "--duration", "3600", "--stops", "0.5,900", "--no-events", "--report",
                 directory + "/r.json", "--quiet"] + extra)
            #expect(run.status == .success, "\(run.err)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/r.json"))) as? [String: Any])
            visits.append(try #require((report["events"] as? [String: Int])?["visit"]))
        }
        #expect(visits[0] == 0)
        #expect(visits[1] > 20)
    }
}
