import Foundation
import Synchronization
import TestSupport
import Testing
@testable import location_router

/// Inputs that used to be misread or misreported are refused with the reason and the place.
@Suite struct InputRefusalTests {
    @Test func aSymbolicLinkLoopIsNamedAsSuch() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/a.geojson", withDestinationPath: "b.geojson")
        try FileManager.default.createSymbolicLink(atPath: directory + "/b.geojson", withDestinationPath: "a.geojson")
        let run = await runCommand(["--regions", directory + "/a.geojson", "--no-events", "--no-report"])
        #expect(run.status == .inputMissing)
        #expect(run.err.contains("symbolic links"), "\(run.err)")
    }

    @Test func aCSVHeaderLongerThanTheLineLimitIsFatal() throws {
        let header = "device,lat,lon,time" + String(repeating: ",x", count: 600_000)
        let run = try runExecutable(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--no-events", "--no-report"],
            stdin: header + "\na,25.06,121.517,2026-11-21T08:00:00Z\n")
        #expect(run.status == 65)
        #expect(run.err.contains("stdin:1") && run.err.contains("first line"), "\(run.err)")
    }

    @Test func aRepeatedGPXAttributeIsAnError() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/twice.gpx"
        try #"<?xml version="1.0"?><gpx version="1.1" creator="t"><trk><trkseg><trkpt lat="25" lat="26" lon="121"/></trkseg></trk></gpx>"#
            .write(toFile: path, atomically: false, encoding: .utf8)
        let run = await runCommand(["check", path])
        #expect(run.status == .invalidInput)
        #expect(run.out.contains("attribute lat appears twice in <trkpt>"), "\(run.out)")
    }

    @Test func aGPXFileTimedOverCenturiesIsRefusedNotPlayedForever() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/ages.gpx"
        try """
            <?xml version="1.0"?><gpx version="1.1" creator="t"><rte>
            <rtept lat="25.0" lon="121.5"><time>0001-01-01T00:00:00Z</time></rtept>
            <rtept lat="25.01" lon="121.5"><time>9999-12-31T00:00:00Z</time></rtept></rte></gpx>
            """.write(toFile: path, atomically: false, encoding: .utf8)
        let check = await runCommand(["check", path])
        #expect(check.status == .invalidInput)
        #expect(check.out.contains("at most 366 days"))
        let run = await runCommand(["--source", "gpx:" + path, "--no-events", "--no-report"])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("at most 366 days"))
    }

    @Test func aCorruptSnapshotLineIsReportedWithItsOwnLineNumber() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/state.ndjson"
        try """
            {"format":"location-router-state","version":1,"profile":"exact","devices":2}
            {"device":"device-0","time":0,"lat":25,"lon":121,"regions":[],"failed":[]}
            {"device":"device-1","time":0,"lat":125,"lon":121,"regions":[],"failed":[]}
            {"end":true,"devices":2}
            """.write(toFile: state, atomically: false, encoding: .utf8)
        try "kept\n".write(toFile: directory + "/events.ndjson", atomically: false, encoding: .utf8)
        let run = await runCommand(
            ["--devices", "2", "--duration", "5", "--state", state, "--events", directory + "/events.ndjson", "--no-report"])
        #expect(run.status == .invalidInput)
        #expect(run.err.contains("state.ndjson:3"), "\(run.err)")
        // Nothing is truncated before the inputs have validated.
        #expect(try String(contentsOfFile: directory + "/events.ndjson", encoding: .utf8) == "kept\n")
    }

    @Test func outputsThatNameTheSameFileAreRefusedBeforeAnythingIsWritten() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "kept\n".write(toFile: directory + "/out.ndjson", atomically: false, encoding: .utf8)
        for pair in [("--events", "--report"), ("--events", "--state"), ("--report", "--state"), ("--events", "--ground-truth"), ("--report", "--html")] {
            let run = await runCommand(
                ["--devices", "2", "--duration", "5", pair.0, directory + "/out.ndjson", pair.1, directory + "/./out.ndjson"])
            #expect(run.status == .usage)
            #expect(run.err.contains("\(pair.0) ") && run.err.contains("\(pair.1) ") && run.err.contains("same file"))
        }
        let webhook = await runCommand(
            ["--devices", "2", "--duration", "5", "--events", directory + "/out.ndjson", "--webhook", "http://127.0.0.1:9/",
             "--dead-letter", directory + "/out.ndjson", "--no-report"])
        #expect(webhook.status == .usage)
        #expect(try String(contentsOfFile: directory + "/out.ndjson", encoding: .utf8) == "kept\n")
        let unwritable = await runCommand(["--devices", "2", "--duration", "5", "--report", directory + "/missing/report.json"])
        #expect(unwritable.status == .usage)
        #expect(unwritable.err.contains("does not exist"))
    }

    /// The config file and a file redirected to standard input are inputs too, and a directory is no output: each
    /// is refused before the run (the config and the samples were replaced, and a directory failed after the run).
    @Test func noOutputReplacesTheConfigOrTheSamplesOrIsADirectory() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/scenario.json"
        let scenario = #"{"source": {"devices": 3, "duration": 5}}"#
        try scenario.write(toFile: config, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: false)
        let refusals: [([String], String)] = [
            // Each with no other output in the working directory, should the refusal fail.
            (["--config", config, "--no-events", "--report", config], "--report \(config) is --config \(config), which this command reads"),
            (["--config", config, "--events", directory + "/./scenario.json", "--no-report"], "is --config"),
            (["--config", config, "--no-events", "--report", directory + "/folder"], "--report \(directory)/folder: is a directory"),
            (["--config", config, "--no-report", "--events", directory + "/folder"], "--events \(directory)/folder: is a directory"),
        ]
        for (arguments, message) in refusals {
            let run = await runCommand(arguments)
            #expect(run.status == .usage, "\(arguments)")
            #expect(run.err.contains(message), "\(arguments): \(run.err)")
        }
        #expect(try String(contentsOfFile: config, encoding: .utf8) == scenario)
        // The built executable with a file on its standard input, as a shell's `< samples.ndjson` gives it.
        let samples = directory + "/samples.ndjson"
        let lines = #"{"device":"d","lat":25.0,"lon":121.5,"time":1795248000}"# + "\n"
        try lines.write(toFile: samples, atomically: false, encoding: .utf8)
        let process = try executableProcess(
            [
                "--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--events", samples,
                "--no-report", "--quiet",
            ], in: directory)
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: samples))
        let error = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "\(message)")
        #expect(message.contains("--events \(samples) is standard input"), "\(message)")
        #expect(try String(contentsOfFile: samples, encoding: .utf8) == lines)
    }

    @Test func aReportToADeviceOrAFIFOLeavesItInPlace() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/null-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let fifo = directory + "/report.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The FIFO's reader runs on a thread of its own, as another program would.
        let received = Received()
        let reader = Thread {
            let handle = FileHandle(forReadingAtPath: fifo)
            received.text.withLock { $0 = String(decoding: handle?.readDataToEndOfFile() ?? Data(), as: UTF8.self) }
            try? handle?.close()
            received.done.signal()
        }
        reader.start()
        let run = try runExecutable(
            ["--devices", "20", "--duration", "10", "--events", link, "--report", fifo, "--quiet"], stdin: "")
        #expect(run.status == 0, "\(run.err)")
        var status = stat()
        #expect(lstat(link, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK)
        #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
        #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
        received.done.wait()
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(received.text.withLock { $0 }.utf8)) as? [String: Any])
        #expect(report["devices"] as? Int == 20)
    }
}

private final class Received: Sendable {
    let text = Mutex("")
    let done = DispatchSemaphore(value: 0)
}
