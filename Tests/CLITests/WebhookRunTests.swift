import Foundation
import TestSupport
import Testing

/// The built executable against misbehaving webhook receivers: the run must end normally, with its report,
/// and every event either delivered or in the dead-letter file.
@Suite struct WebhookRunTests {
    @Test func aReceiverThatSendsOnlyTheStatusLineNeitherCrashesNorLosesEvents() async throws {
        // `HTTP/1.1 200 OK` and the connection closes: FoundationNetworking's URLSession ended the process with
        // "Transfer completed, but there's no response" (exit 132), with no report and no dead letters.
        let server = try RawAnswerServer(answer: Array("HTTP/1.1 200 OK\r\n".utf8))
        defer { server.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await runExecutableBounded(
            ["--source", "stdin", "--regions", fixture("taipei-regions.geojson"), "--no-events", "--quiet",
             "--webhook", server.url, "--dead-letter", directory + "/dead.ndjson", "--report", directory + "/report.json"],
            stdin: fixture("walk.ndjson"), folder: directory, timeLimit: .seconds(60))

        #expect(run.status == 0, "\(run.err)")
        #expect(!run.timedOut)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as? [String: Any])
        let webhook = try #require(report["webhook"] as? [String: Any])
        let emitted = try #require((report["accounting"] as? [String: Any])?["eventsEmitted"] as? Int)
        let deadLetters = String(decoding: FileManager.default.contents(atPath: directory + "/dead.ndjson") ?? Data(), as: UTF8.self)
            .split(separator: "\n")
        #expect(emitted == 5)
        #expect(webhook["delivered"] as? Int == 0)
        #expect(webhook["deadLettered"] as? Int == emitted)
        #expect(deadLetters.count == emitted, "every event in the dead-letter file")
        #expect(webhook["lost"] as? Int == 0)
        // One batch, tried the default 5 times: counted by the receiver itself.
        #expect(server.requests == 5)
        #expect(webhook["retries"] as? Int == 4)
        #expect((report["accounting"] as? [String: Any])?["balanced"] as? Bool == true)
        // Why the events were dead-lettered: the counts alone did not say.
        #expect(webhook["lastFailure"] as? String == "the connection closed in the middle of the answer")
    }
}
