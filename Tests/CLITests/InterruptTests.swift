import Foundation
import TestSupport
import Testing

/// Ctrl-C as a user presses it: the built executable, interrupted in the middle of a long run.
@Suite struct InterruptTests {
    @Test func sigintDrainsTheRunAndWritesACompleteReportAndEventFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Ten simulated hours of 5,000 devices: far longer than the test waits.
        let process = try executableProcess(
            ["--devices", "5000", "--duration", "36000", "--events", "events.ndjson", "--report", "report.json"],
            in: directory)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Interrupt once events are flowing.
        let events = directory + "/events.ndjson"
        let started = Date()
        while ((try? FileManager.default.attributesOfItem(atPath: events)[.size] as? Int) ?? 0) < 10_000,
            Date().timeIntervalSince(started) < 60
        {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        process.interrupt()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 130, "\(message)")
        #expect(message.contains("SIGINT: draining"))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as? [String: Any])
        #expect(report["interrupted"] as? Bool == true)
        #expect(report["dropped"] as? Int == 0)
        let updates = report["updates"] as? Int ?? 0
        #expect(updates > 0 && updates < 5000 * 36_001)
        // Every event counted was written, each on a whole line.
        let text = try String(contentsOfFile: events, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count == report["notificationsDelivered"] as? Int)
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }
}

/// SIGTERM and SIGHUP drain like Ctrl-C, with their own exit status; a run that cannot drain still ends.
@Suite struct SignalTests {
    /// Runs the executable, sends `signal` once `ready` says the run is under way (events flow, so its signal
    /// handling is installed), and waits for it to end — killing it after `limit` seconds, should it hang.
    private func run(
        _ arguments: [String], in directory: String, signal: Int32, limit: Double = 120, when ready: @escaping () -> Bool
    ) async throws -> Process {
        let process = try executableProcess(arguments, in: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try await runToExit(process) { process in
            while process.isRunning, !ready() {
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            kill(process.processIdentifier, signal)
            let deadline = Date().addingTimeInterval(limit)
            while process.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        return process
    }

    private func report(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test(arguments: [(SIGTERM, Int32(143), "SIGTERM"), (SIGHUP, Int32(129), "SIGHUP")])
    func aSignalDrainsTheRunAndItsExitStatusNamesIt(signal: Int32, status: Int32, name: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = try await run(
            ["--devices", "2000", "--duration", "36000", "--pace", "600", "--events", "events.ndjson", "--report", "report.json"],
            in: directory, signal: signal
        ) {
            ((try? FileManager.default.attributesOfItem(atPath: directory + "/events.ndjson")[.size] as? Int) ?? 0) > 10_000
        }
        #expect(process.terminationStatus == status)
        let report = try report(directory + "/report.json")
        #expect(report["interrupted"] as? Bool == true)
        #expect(report["stoppedBy"] as? String == name)
        let lines = try String(contentsOfFile: directory + "/events.ndjson", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == report["notificationsDelivered"] as? Int)
    }

    @Test func eventsToAFIFONobodyReadsStillEndAfterTheDrainTimeout() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/events.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader opens the FIFO (so the run can start) and then never reads.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        // The signal comes once the first events arrive (a few bytes are read to see them; then nobody reads).
        let process = try await run(
            ["--devices", "2000", "--duration", "36000", "--events", fifo, "--report", "report.json", "--drain-timeout", "1"],
            in: directory, signal: SIGINT, limit: 60
        ) {
            var byte: UInt8 = 0
            return read(reader, &byte, 1) == 1
        }
        // Ended by itself (not by the test's SIGKILL after 60 s), with the first signal's status.
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let report = try report(directory + "/report.json")
        #expect(report["complete"] as? Bool == false)
        #expect(report["stoppedBy"] as? String == "SIGINT")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
    }
}
