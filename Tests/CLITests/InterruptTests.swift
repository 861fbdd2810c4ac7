import Foundation
import Testing

/// Ctrl-C as a user presses it: the built executable, interrupted in the middle of a long run.
@Suite struct InterruptTests {
    @Test func sigintDrainsTheRunAndWritesACompleteReportAndEventFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executablePath())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        // Ten simulated hours of 5,000 devices: far longer than the test waits.
        process.arguments = [
            "--devices", "5000", "--duration", "36000", "--events", "events.ndjson", "--report", "report.json",
        ]
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
