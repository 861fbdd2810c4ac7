import Foundation
import TestSupport
import Testing

/// A reader that goes away: `location-router --events - | head -1`, the built executable's events on a pipe whose
/// reader closes it after the first line.
@Suite struct BrokenPipeTests {
    @Test func aClosedEventsPipeIsASinkFailureWithAReport() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Thousands of events, far more than the pipe holds once its reader is gone.
        let process = try executableProcess(
            ["--devices", "2000", "--duration", "120", "--events", "-", "--report", "report.json"], in: directory)
        let events = Pipe()
        let errors = Pipe()
        process.standardOutput = events
        process.standardError = errors
        try await runToExit(process) { _ in
            // `head -1`: the first line, then the pipe is closed.
            var first = Data()
            while !first.contains(UInt8(ascii: "\n")), let byte = try events.fileHandleForReading.read(upToCount: 1),
                !byte.isEmpty
            {
                first += byte
            }
            #expect(String(decoding: first, as: UTF8.self).hasPrefix(#"{"device":"#))
            try events.fileHandleForReading.close()
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

        // Not killed by SIGPIPE (141 in a shell): the sink's failure, its exit status and a whole report.
        #expect(process.terminationReason == .exit, "\(message)")
        #expect(process.terminationStatus == 74, "\(message)")
        #expect(message.contains("Error: stdout: "), "\(message)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        #expect((report["sinkFailure"] as? String)?.hasPrefix("stdout: ") == true, "\(report["sinkFailure"] ?? "none")")
        let dropped = try #require(report["dropped"] as? Int)
        let delivered = try #require(report["notificationsDelivered"] as? Int)
        #expect(dropped > 0)
        #expect(delivered + dropped == report["eventsEmitted"] as? Int)
    }
}
