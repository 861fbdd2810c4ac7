import Foundation
import TestSupport
import Testing
@testable import location_router

/// Shared catalogs from the command line: the shipped example, the options and keys, `check`'s warning.
@Suite struct CatalogCommandTests {
    /// A GeoJSON catalog of `count` circles without `devices`, a row of stores 300 m apart around Taipei.
    static func catalogFile(_ count: Int, in folder: String) throws -> String {
        let features = (0..<count).map { k in
            #"{"type":"Feature","id":"store-\#(k)","geometry":{"type":"Point","coordinates":[\#(121.5654 + Double(k % 10) * 0.003),\#(25.033 + Double(k / 10) * 0.003)]},"properties":{"radius":120}}"#
        }
        let path = folder + "/stores.geojson"
        try Data(#"{"type":"FeatureCollection","features":["# .utf8 + Data(features.joined(separator: ",").utf8) + Data("]}".utf8))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    static func report(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func theShippedExampleRunsAndMeetsItsThresholds() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await runCommand(
            ["run", "--config", projectRoot + "/examples/catalog-nearest.json", "--devices", "60", "--duration", "300",
             "--report", folder + "/report.json", "--quiet"])
        #expect(run.status == .success, "\(run.err)")
        let report = try Self.report(folder + "/report.json")
        let selection = try #require(report["selection"] as? [String: Any])
        let coverage = try #require(report["coverage"] as? [String: Any])
        #expect(selection["strategy"] as? String == "nearest")
        #expect((selection["refreshes"] as? Int ?? 0) > 0)
        #expect((coverage["transitions"] as? Int ?? 0) > 0)
        #expect(report["regions"] as? Int == 5_000)
        #expect((report["failed"] as? [String: Any])?["tooManyRegions"] as? Int == 0)
    }

    @Test func aRegionFileCatalogUnderNearestNeverFails() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let regions = try Self.catalogFile(60, in: folder)
        let common = ["run", "--regions", regions, "--devices", "30", "--duration", "120", "--no-events", "--quiet"]
        let nearest = await runCommand(
            common + ["--selection", "nearest", "--refresh-distance", "300", "--proximity-radius", "5000", "--coverage",
                      "--report", folder + "/nearest.json", "--threshold", "failed.tooManyRegions == 0"])
        #expect(nearest.status == .success, "\(nearest.err)")
        #expect(((try Self.report(folder + "/nearest.json"))["coverage"] as? [String: Any])?["ratio"] != nil)
        // The default, fileOrder: every device registers the 60 stores in file order; 40 fail.
        let fileOrder = await runCommand(common + ["--report", folder + "/fileOrder.json"])
        #expect(fileOrder.status == .success, "\(fileOrder.err)")
        // Said before the run, in check's words, and not under nearest.
        #expect(fileOrder.err.contains("warning: a shared catalog of 60 regions"), "\(fileOrder.err)")
        #expect(fileOrder.err.contains("larger than the slot limit (20)"), "\(fileOrder.err)")
        #expect(!nearest.err.contains("warning"), "\(nearest.err)")
        let failed = (try Self.report(folder + "/fileOrder.json"))["failed"] as? [String: Any]
        #expect(failed?["tooManyRegions"] as? Int == 30 * 40)
    }

    @Test func checkWarnsOfACatalogPastTheSlotLimit() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let big = try Self.catalogFile(21, in: folder)
        let run = await runCommand(["check", "--json", big])
        #expect(run.status == .success)
        #expect(run.out.contains(#""shared":21"#))
        #expect(run.out.contains("a shared catalog of 21 regions"))
        let small = try Self.catalogFile(20, in: folder)
        let quiet = await runCommand(["check", "--json", small])
        #expect(!quiet.out.contains("shared catalog"))
        // A config's generated catalog: no warning once it chooses the nearest.
        let config = folder + "/config.json"
        try Data(#"{"regions":{"catalog":{"count":500}},"monitor":{"selection":"nearest"}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let chosen = await runCommand(["check", config])
        #expect(chosen.status == .success)
        #expect(!chosen.out.contains("shared catalog"))
        #expect((await runCommand(["check", "--help"])).out.contains("larger than the slot limit is a warning"))
        // A generated catalog beside a region file is left out of the run: said by check as by run.
        try Data(#"{"regions":{"file":"\#(big)","catalog":{"count":5}}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let ignored = await runCommand(["check", config])
        #expect(ignored.status == .success, "\(ignored.out)")
        #expect(ignored.out.contains("--catalog (regions.catalog) is ignored: the regions come from \(big)"), "\(ignored.out)")
    }

    /// Catalog options that the other inputs leave with nothing to do are warned about before the run, which goes
    /// on as before: a generated catalog beside a region file, `nearest` or `--coverage` without a shared catalog;
    /// so is a catalog past the profile's slot limit under `fileOrder`.
    @Test func catalogOptionsWithNothingToDoAreWarnedAbout() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stores = try Self.catalogFile(3, in: folder)
        let own = folder + "/own.geojson"
        try Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"home","geometry":{"type":"Point","coordinates":[121.5654,25.033]},"properties":{"radius":100,"devices":["device-0"]}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: own))
        let common = ["run", "--devices", "2", "--duration", "10", "--no-events", "--no-report", "--quiet"]
        let ignored = await runCommand(common + ["--catalog", "50", "--regions", stores])
        #expect(ignored.status == .success, "\(ignored.err)")
        #expect(ignored.err.contains("warning: --catalog (regions.catalog) is ignored: the regions come from \(stores)"))
        let generated = await runCommand(common + ["--selection", "nearest", "--coverage"])
        #expect(generated.status == .success, "\(generated.err)")
        #expect(generated.err.contains("warning: --selection nearest has no shared catalog to choose from"))
        #expect(generated.err.contains("warning: --coverage has no shared catalog to evaluate"))
        let listed = await runCommand(common + ["--regions", own, "--coverage"])
        #expect(listed.err.contains("every region of \(own) lists its devices"), "\(listed.err)")
        let fine = await runCommand(common + ["--catalog", "50", "--selection", "nearest", "--coverage"])
        #expect(fine.status == .success)
        #expect(!fine.err.contains("warning"), "\(fine.err)")
        // A generated catalog past the profile's slot limit under fileOrder: each device's 21st region on fails.
        let pastLimit = await runCommand(common + ["--catalog", "50"])
        #expect(pastLimit.status == .success)
        #expect(pastLimit.err.contains("warning: a shared catalog of 50 regions"), "\(pastLimit.err)")
        #expect(pastLimit.err.contains("use --selection nearest"), "\(pastLimit.err)")
        let android = await runCommand(common + ["--catalog", "50", "--profile", "android"])
        #expect(android.status == .success)
        #expect(!android.err.contains("warning"), "\(android.err)")
        let file = await runCommand(common + ["--regions", stores, "--selection", "nearest", "--coverage"])
        #expect(!file.err.contains("warning"), "\(file.err)")
    }

    /// A catalog within the slot limit can still pass it with a device's own regions (under `fileOrder`), and under
    /// `nearest` catalog regions the profile refuses are never chosen: both said before the run (`check` says the
    /// first too), and neither where it does not apply.
    @Test func ownRegionsBesideACatalogAndRegionsNeverChosenAreWarnedAbout() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stores = try String(contentsOfFile: Self.catalogFile(18, in: folder), encoding: .utf8).dropLast(2)
        func own(_ id: String, _ device: String) -> String {
            #",{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[121.6,25.1]},"properties":{"radius":50,"devices":["\#(device)"]}}"#
        }
        // device-0 has 5 regions of its own (5 + 18 = 23: 3 fail); device-1 has 2 (20: none fails).
        let mixed = folder + "/mixed.geojson"
        let owned = (0..<5).map { own("home-\($0)", "device-0") } + (0..<2).map { own("work-\($0)", "device-1") }
        try Data((stores + owned.joined() + "]}").utf8).write(to: URL(fileURLWithPath: mixed))
        let common = ["run", "--devices", "2", "--duration", "10", "--no-events", "--quiet"]
        let fileOrder = await runCommand(common + ["--regions", mixed, "--report", folder + "/r.json"])
        #expect(fileOrder.status == .success, "\(fileOrder.err)")
        let past = "1 device registers more regions than the slot limit (20), its own and the shared catalog's 18 (device-0: 5 + 18 = 23)"
        #expect(fileOrder.err.contains("warning: " + past), "\(fileOrder.err)")
        #expect(fileOrder.err.contains("use --selection nearest"), "\(fileOrder.err)")
        #expect(((try Self.report(folder + "/r.json"))["failed"] as? [String: Any])?["tooManyRegions"] as? Int == 3)
        let check = await runCommand(["check", mixed])
        #expect(check.status == .success)
        #expect(check.out.contains(past), "\(check.out)")
        let nearest = await runCommand(common + ["--regions", mixed, "--selection", "nearest", "--no-report"])
        #expect(!nearest.err.contains("warning"), "\(nearest.err)")
        // Two devices past the limit: the one named has the most own regions.
        let more = folder + "/more.geojson"
        try Data((stores + (owned + (0..<3).map { own("gym-\($0)", "device-1") }).joined() + "]}").utf8)
            .write(to: URL(fileURLWithPath: more))
        #expect((await runCommand(["check", more])).out.contains("2 devices register more regions than the slot limit (20), their own and the shared catalog's 18 (device-0: 5 + 18 = 23)"))

        // Under nearest, own regions that fill the slots leave none for the catalog: 20 of device-0's (a slot limit
        // of 20, and none fails), then 22 (2 fail) beside device-1's 20.
        let full = folder + "/full.geojson"
        let twenty = (0..<20).map { own("home-\($0)", "device-0") }
        try Data((stores + twenty.joined() + "]}").utf8).write(to: URL(fileURLWithPath: full))
        let filled = await runCommand(
            common + ["--regions", full, "--selection", "nearest", "--report", folder + "/full.json"])
        #expect(filled.status == .success, "\(filled.err)")
        #expect(filled.err.contains(
            "warning: 1 device has as many regions of its own as the slot limit (20) or more (device-0: 20), which leaves it no slot for the shared catalog under selection nearest\n"), "\(filled.err)")
        #expect(((try Self.report(folder + "/full.json"))["failed"] as? [String: Any])?["tooManyRegions"] as? Int == 0)
        let past20 = folder + "/past.geojson"
        let overfull = twenty + (20..<22).map { own("home-\($0)", "device-0") } + (0..<20).map { own("work-\($0)", "device-1") }
        try Data((stores + overfull.joined() + "]}").utf8).write(to: URL(fileURLWithPath: past20))
        let both = await runCommand(common + ["--regions", past20, "--selection", "nearest", "--no-report"])
        #expect(both.err.contains(
            "warning: 2 devices have as many regions of their own as the slot limit (20) or more (device-0: 22), which leaves them no slot for the shared catalog under selection nearest; a device's own regions past the limit fail"), "\(both.err)")
        let android = await runCommand(common + ["--regions", full, "--selection", "nearest", "--profile", "android", "--no-report"])
        #expect(!android.err.contains("warning"), "\(android.err)")

        // Under nearest: two polygons ios cannot monitor, and the 18 stores of 120 m past a maximum radius of 110 m.
        let parks = folder + "/parks.geojson"
        func park(_ k: Int) -> String {
            let west = 121.56 + Double(k) * 0.01
            return #",{"type":"Feature","id":"park-\#(k)","geometry":{"type":"Polygon","coordinates":[[[\#(west),25.03],[\#(west + 0.002),25.03],[\#(west + 0.002),25.032],[\#(west),25.032],[\#(west),25.03]]]},"properties":{}}"#
        }
        try Data((String(stores) + park(0) + park(1) + "]}").utf8).write(to: URL(fileURLWithPath: parks))
        let choosing = common + ["--regions", parks, "--selection", "nearest", "--no-report"]
        let ios = await runCommand(choosing + ["--profile", "ios"])
        #expect(ios.status == .success, "\(ios.err)")
        #expect(ios.err.contains(
            "warning: under selection nearest 2 of the shared catalog's 20 regions are never chosen: 2 polygons (profile ios monitors circles only: --polygons enclosingCircle"), "\(ios.err)")
        for fine in [["--profile", "ios", "--polygons", "enclosingCircle"], ["--profile", "exact"]] {
            let run = await runCommand(choosing + fine)
            #expect(!run.err.contains("warning"), "\(fine): \(run.err)")
        }
        let config = folder + "/config.json"
        try Data(#"{"monitor":{"maximumRadius":110}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let large = await runCommand(choosing + ["--config", config])
        #expect(large.err.contains(
            "warning: under selection nearest 18 of the shared catalog's 20 regions are never chosen: 18 larger than the maximum radius (110 m, monitor.maximumRadius)"), "\(large.err)")
    }

    @Test(arguments: [
        (["--selection", "closest"], ExitCode.usage),
        (["--refresh-distance", "0"], .usage),
        (["--catalog", "0"], .usage),
    ])
    func badOptionsAreUsageErrors(arguments: [String], status: ExitCode) async {
        let run = await runCommand(["run", "--devices", "2", "--duration", "1", "--no-events", "--no-report", "--quiet"] + arguments)
        #expect(run.status == status)
        #expect(run.err.contains(arguments[0]))
    }

    @Test(arguments: [
        (#"{"monitor":{"selection":"closest"}}"#, "monitor.selection"),
        (#"{"regions":{"catalog":{"count":0}}}"#, "regions.catalog.count"),
        (#"{"regions":{"catalog":{"count":5,"shape":"square"}}}"#, "shape"),
        (#"{"monitor":{"proximityRadius":-1}}"#, "monitor.proximityRadius"),
    ])
    func badConfigValuesNameTheirKey(json: String, key: String) async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/config.json"))
        let run = await runCommand(["run", "--config", folder + "/config.json", "--no-events", "--no-report", "--quiet"])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains(key), "\(run.err)")
    }
}
