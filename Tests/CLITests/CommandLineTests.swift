import Foundation
import GeofenceKit
import TestSupport
import Testing
@testable import location_router

@Suite struct CommandLineTests {
    @Test(arguments: [["--help"], ["-h"], ["run", "--help"], ["help"]])
    func helpGoesToStandardOutputWithUsage(arguments: [String]) async {
        let run = await runCommand(arguments)
        #expect(run.status == .success)
        #expect(run.out.contains("USAGE: location-router"))
        #expect(run.err.isEmpty)
    }

    @Test func helpForASubcommandThatDoesNotExistIsAUsageError() async {
        let run = await runCommand(["help", "fetch"])
        #expect(run.status == .usage)
        #expect(run.err.contains("no subcommand 'fetch': the subcommands are run, check, score, serve, report and merge"))
        #expect(run.err.contains("Usage: location-router help [<subcommand>]"), "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(await runCommand(["help", "merge"]).out.contains("USAGE: location-router merge"))
    }

    @Test func checkHasItsOwnHelp() async {
        let run = await runCommand(["check", "--help"])
        #expect(run.status == .success)
        #expect(run.out.contains("USAGE: location-router check"))
    }

    @Test func versionPrintsTheVersion() async {
        let run = await runCommand(["--version"])
        #expect(run.status == .success)
        #expect(run.out == "0.1.0\n")
    }

    @Test(arguments: [
        (["--bogus"], "Unknown option '--bogus'"),
        (["--devices", "many"], "'--devices <n>'"),
        (["--devices"], "Missing value for '--devices <value>'"),
        (["--source", "carrier-pigeon"], "'--source <kind>'"),
        (["--profile", "symbian"], "'--profile <name>'"),
        (["--pace", "-3"], "'--pace <pace>'"),
        (["--source", "stdin"], "needs regions"),
        (["check"], "Missing expected argument"),
        (["--webhook", "ftp://example.invalid/hook"], "'--webhook <url>'"),
        (["--speed", "0"], "'--speed <m/s>'"),
        (["--source", "route:25,121"], "at least two waypoints"),
        // Hexadecimal, which Double(_:) reads: 0x10 was taken as 16 m.
        (["--refresh-distance", "0x10"], "'--refresh-distance <metres>'"),
        (["--pace", "0x2"], "'--pace <pace>'"),
        (["--authorization", "denied=0x0.8"], "'--authorization <shares>'"),
    ])
    func usageErrorsExit64WithAHint(arguments: [String], message: String) async {
        let run = await runCommand(arguments)
        #expect(run.status == .usage)
        #expect(run.err.hasPrefix("Error: "))
        #expect(run.err.contains(message))
        #expect(run.err.contains("--help"))
    }

    @Test func anInvalidConfigExits65NamingTheKeyPath() async {
        let run = await runCommand(["--config", fixture("bad-config.json")])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("bad-config.json"))
        #expect(run.err.contains("source.speed.max: must be > 0"))
    }

    @Test func anUnknownConfigKeyIsAnError() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(#"{"source":{"devicez":5}}"#.utf8).write(to: URL(fileURLWithPath: directory + "/config.json"))
        let run = await runCommand([], workingDirectory: directory)
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("source.devicez"))
    }

    @Test func aMissingConfigOrRegionFileExits66() async {
        #expect(await runCommand(["--config", "/nonexistent/config.json"]).status == .inputMissing)
        #expect(await runCommand(["--regions", "/nonexistent/regions.geojson"]).status == .inputMissing)
        // A relative path, as a config file in another folder gives it: read from the working directory, which the
        // message names with the option and the key.
        let relative = await runCommand(["--regions", "nonexistent/regions.geojson"])
        #expect(relative.status == .inputMissing)
        #expect(
            relative.err.contains(
                "--regions (regions.file) nonexistent/regions.geojson: no such file (read from the working directory, "),
            "\(relative.err)")
    }

    @Test func invalidRegionsExit65NamingTheFeatureAndField() async {
        let run = await runCommand(["--regions", fixture("bad-regions.geojson"), "--devices", "5", "--duration", "1"])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("features[1].properties.radius"))
    }

    @Test func theShippedConfigIsTheBuiltInDefault() throws {
        var fromFile = Scenario()
        try fromFile.apply(configJSON: Array(try Data(contentsOf: URL(fileURLWithPath: projectRoot + "/config.json"))))
        #expect(fromFile == Scenario())
        #expect(fromFile.settings == MonitorSettings.exact)
        #expect(fromFile.walk.devices == 10_000)
        #expect(fromFile.walk.regions.perDevice == 20)
        #expect(fromFile.walk.duration == 600)
        #expect(fromFile.seed == 42)
    }

    @Test func aRandomWalkRunWritesEventsAndACompleteReport() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = await runCommand([
            "run", "--devices", "200", "--duration", "60", "--events", directory + "/events.ndjson",
            "--report", directory + "/report.json", "--shards", "2",
        ], workingDirectory: directory)
        #expect(run.status == .success, "\(run.err)")
        #expect(run.out.contains("updates"))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as? [String: Any])
        for key in ["devices", "regions", "updates", "wallSeconds", "simulatedSeconds", "updatesPerSecond", "events",
                    "notificationsDelivered", "dropped", "rejected", "latencyMs", "peakResidentBytes", "shards", "profile",
                    "seed", "version"] {
            #expect(report[key] != nil, "report lacks \(key)")
        }
        #expect(report["updates"] as? Int == 200 * 61)
        #expect(report["dropped"] as? Int == 0)
        #expect(report["profile"] as? String == "exact")
        #expect((report["latencyMs"] as? [String: Any])?.keys.sorted() == ["max", "p50", "p90", "p99", "p999"])
        let events = try String(contentsOfFile: directory + "/events.ndjson", encoding: .utf8).split(separator: "\n")
        #expect(events.count == report["notificationsDelivered"] as? Int)
        #expect(events.count > 0)
    }

    /// `--no-report` wins over `--report PATH` (and `--no-events` over `--events PATH`) in either order, and the
    /// command says so; one of them alone says nothing.
    @Test(arguments: [false, true])
    func anOutputTurnedOffBesideItsPathIsAWarning(flagFirst: Bool) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = ["--report", directory + "/report.json", "--events", directory + "/events.ndjson"]
        let flags = ["--no-report", "--no-events"]
        let common = ["run", "--devices", "3", "--duration", "2", "--quiet"]
        let run = await runCommand(common + (flagFirst ? flags + paths : paths + flags), workingDirectory: directory)
        #expect(run.status == .success, "\(run.err)")
        #expect(run.err.contains("warning: '--no-report' overrides '--report'"), "\(run.err)")
        #expect(run.err.contains("warning: '--no-events' overrides '--events'"), "\(run.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        let plain = await runCommand(common + ["--report", directory + "/report.json", "--no-events"])
        #expect(plain.status == .success)
        #expect(plain.err.isEmpty, "\(plain.err)")
        let merge = await runCommand([
            "merge", directory + "/report.json", "--report", directory + "/m.json", "--no-report",
        ])
        #expect(merge.status == .success, "\(merge.err)")
        #expect(merge.err.contains("warning: '--no-report' overrides '--report'"), "\(merge.err)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/m.json"))
    }
}

@Suite struct StateOptionTests {
    @Test func aCorruptSnapshotExits65NamingTheFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("{\"format\":\"location-router-state\",\"version\":1}\n{\"device\":".utf8)
            .write(to: URL(fileURLWithPath: directory + "/state.ndjson"))
        let run = await runCommand(["--devices", "5", "--duration", "5", "--no-events", "--no-report", "--state", directory + "/state.ndjson"])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("state.ndjson"))
    }

    @Test func whatIsNotASnapshotIsNamedByItsOption() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let samples = directory + "/samples.csv"
        try Data("device,lat,lon,time\nbus-1,25.03,121.56,1795248000\n".utf8).write(to: URL(fileURLWithPath: samples))
        let common = ["--devices", "5", "--duration", "5", "--no-events", "--no-report", "--state"]
        let csv = await runCommand(common + [samples])
        #expect(csv.status == .invalidInput)
        #expect(csv.err.contains("--state \(samples):1: not a LocationRouter state snapshot (its first line"), "\(csv.err)")
        // A directory is no file to write either: refused before the run, as every output is.
        let folder = await runCommand(common + [directory])
        #expect(folder.status == .usage)
        #expect(folder.err.contains("--state \(directory): is a directory"), "\(folder.err)")
        // Neither was touched.
        #expect(try String(contentsOfFile: samples, encoding: .utf8).hasPrefix("device,lat,lon,time"))
    }

    @Test func aRunWritesItsStateForTheNextOne() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.ndjson"
        let run = await runCommand(["--devices", "30", "--duration", "20", "--no-events", "--no-report", "--state", path])
        #expect(run.status == .success, "\(run.err)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("{\"format\":\"location-router-state\""))
        #expect(text.split(separator: "\n").count == 32)
    }
}
