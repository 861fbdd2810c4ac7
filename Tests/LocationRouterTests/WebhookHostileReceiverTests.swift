import Foundation
import TestSupport
import Testing
@testable import LocationRouter

/// The webhook sink against receivers that misbehave at the HTTP level. Whatever they send, the process must
/// not crash, every request must end within the timeout (plus a little slack), and every event must end
/// either delivered — as counted by the server itself, from the requests it answered with a complete 2xx — or
/// in the dead-letter file, with the statistics matching both counts.
///
/// Durations are measured by the server's own threads (from its answer to the client hanging up), not by the
/// test's task: when the whole suite runs, hundreds of tests share two cooperative threads, and a task can wait
/// minutes for its turn while the client's request threads keep their deadlines.
@Suite struct WebhookHostileReceiverTests {
    static let timeout = 0.75
    /// Room for a machine whose two cores other suites keep busy.
    static let slack = 2.0

    /// A sink with a short timeout, 3 attempts and millisecond backoffs, `lines` written and closed; then the
    /// server finishes every connection, so its counts are complete.
    static func run(_ lines: [String], against server: WebhookTestServer, deadLetter: String) async throws -> WebhookSink {
        let sink = WebhookSink(configuration: try WebhookSinkTests.configuration(server, deadLetter: deadLetter) {
            $0.timeout = timeout
            $0.maxAttempts = 3
            $0.concurrency = 2
        })
        try await WebhookSinkTests.deliver(lines, to: sink)
        await server.finish()
        return sink
    }

    /// 120 events in batches of 50, 50 and 20, each tried 3 times and dead-lettered.
    static func expectAllDeadLetteredAfterThreeAttempts(_ lines: [String], sink: WebhookSink, server: WebhookTestServer, deadLetter: String) {
        WebhookSinkTests.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        let statistics = sink.statistics
        #expect(server.requests.count == 9, "3 batches × 3 attempts, counted at the server")
        #expect(statistics.retries == 6 && statistics.failedRequests == 3)
        #expect(statistics.deadLettered == 120 && WebhookSinkTests.lines(in: deadLetter).count == 120)
        #expect(statistics.delivered == 0 && server.deliveredEvents.isEmpty)
    }

    /// Answers that are no answer, by name (so that a failure report does not print a megabyte of header).
    enum NoAnswer: String, CaseIterable, Sendable {
        case statusLineThenClose, garbage, closeWithoutAnswering, hugeHeader, notHTTP

        var answer: WebhookTestServer.Answer {
            switch self {
            case .statusLineThenClose: .raw(Array("HTTP/1.1 200 OK\r\n".utf8))
            case .garbage: .raw(Array("garbage\r\nmore garbage\r\n\r\n".utf8))
            case .closeWithoutAnswering: .silence
            case .hugeHeader: .raw(Array("HTTP/1.1 200 OK\r\nX-Big: \(String(repeating: "a", count: 1 << 20))\r\n\r\n".utf8))
            case .notHTTP: .raw([0, 1, 2, 255, 254, 13, 10, 13, 10])
            }
        }
    }

    @Test(arguments: NoAnswer.allCases)
    func anAnswerThatIsNoAnswerIsRetriedThenDeadLettered(_ kind: NoAnswer) async throws {
        let answer = kind.answer
        // Recorded as status 0: the server does not count these requests as delivered, and neither may the sink.
        let server = try WebhookTestServer { _, _ in WebhookTestServer.Response(status: 0, answer: answer) }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let lines = WebhookSinkTests.events(120, tag: "hostile")
        let sink = try await Self.run(lines, against: server, deadLetter: deadLetter)

        Self.expectAllDeadLetteredAfterThreeAttempts(lines, sink: sink, server: server, deadLetter: deadLetter)
        Self.expectClosedWithinTheDeadline(server)
    }

    @Test func aTruncatedAnswerIsRetriedAndTheRetryDelivers() async throws {
        let server = try WebhookTestServer { index, _ in
            index < 2 ? WebhookTestServer.Response(status: 0, answer: .raw(Array("HTTP/1.1 200 OK\r\n".utf8))) : .ok
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let lines = WebhookSinkTests.events(120, tag: "recover")
        let sink = try await Self.run(lines, against: server, deadLetter: deadLetter)

        WebhookSinkTests.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.delivered == 120 && server.deliveredEvents.count == 120)
        #expect(sink.statistics.retries == 2 && server.requests.count == 5)
        #expect(!FileManager.default.fileExists(atPath: deadLetter))
    }

    @Test func aTrickledHeadTimesOutAtTheDeadline() async throws {
        // One byte of the status line every 100 ms: the head is never complete within the timeout.
        let server = try WebhookTestServer { _, _ in
            WebhookTestServer.Response(status: 0, answer: .trickle(head: Array("HTTP/1.1 ".utf8), count: 300, interval: 0.1))
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let lines = WebhookSinkTests.events(120, tag: "trickle-head")
        let sink = try await Self.run(lines, against: server, deadLetter: deadLetter)

        Self.expectAllDeadLetteredAfterThreeAttempts(lines, sink: sink, server: server, deadLetter: deadLetter)
        Self.expectClosedWithinTheDeadline(server)
    }

    @Test func aTrickledBodyEndsAtTheDeadlineAndTheAnswerStands() async throws {
        // A complete 200 head, then a 300-byte body at one byte per 100 ms: 30 s if the sink waited for it.
        let server = try WebhookTestServer { _, _ in
            WebhookTestServer.Response(status: 200, answer: .trickledBody(count: 300, interval: 0.1))
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let lines = WebhookSinkTests.events(120, tag: "trickle-body")
        let sink = try await Self.run(lines, against: server, deadLetter: deadLetter)

        WebhookSinkTests.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.delivered == 120 && server.deliveredEvents.count == 120, "the receiver said 200")
        #expect(sink.statistics.retries == 0 && server.requests.count == 3)
        Self.expectClosedWithinTheDeadline(server)
    }

    @Test func theGracePeriodEndsATrickledBodyThatTheTimeoutWouldNotYet() async throws {
        let server = try WebhookTestServer { _, _ in
            WebhookTestServer.Response(status: 200, answer: .trickledBody(count: 600, interval: 0.1))
        }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let sink = WebhookSink(configuration: try WebhookSinkTests.configuration(server, deadLetter: deadLetter) {
            $0.timeout = 120
            $0.gracePeriod = 0.3
        })
        let lines = WebhookSinkTests.events(80, tag: "grace")
        try await WebhookSinkTests.deliver(lines, to: sink)
        await server.finish()

        for exchange in server.exchanges {
            // Had the sink waited for the body, the server would have sent all of it and never seen a hang-up.
            #expect(exchange.clientClosedAfter != nil, "close ended the 60 s trickle after its grace period")
        }
        WebhookSinkTests.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        // The 200 head had arrived: the answer stands, so the events count as delivered, not dead-lettered.
        #expect(sink.statistics.delivered == 80 && server.deliveredEvents.count == 80)
    }

    @Test func anEndlessBodyIsReadOnlyUpToTheCap() async throws {
        let server = try WebhookTestServer { _, _ in WebhookTestServer.Response(status: 200, answer: .endless(head: WebhookTestServer.Answer.head())) }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deadLetter = folder + "/dead-letter.ndjson"
        defer { server.stop() }
        let lines = WebhookSinkTests.events(120, tag: "endless")
        let sink = try await Self.run(lines, against: server, deadLetter: deadLetter)

        WebhookSinkTests.expectEveryEventAccountedOnce(lines, sink: sink, server: server, deadLetter: deadLetter)
        #expect(sink.statistics.delivered == 120 && server.requests.count == 3)
        Self.expectClosedWithinTheDeadline(server)
        for exchange in server.exchanges {
            // The cap plus what the kernel's socket buffers took in before the client closed; the unbounded
            // reading this replaces took gigabytes.
            #expect(exchange.bytesSent < 64 << 20, "the client stopped reading: \(exchange.bytesSent) bytes sent")
        }
    }

    /// The server saw the client close every connection within the timeout and the slack.
    static func expectClosedWithinTheDeadline(_ server: WebhookTestServer) {
        for exchange in server.exchanges {
            #expect(exchange.clientClosedAfter != nil, "the client hung up rather than waiting for the whole answer")
            if let closed = exchange.clientClosedAfter { #expect(closed < timeout + slack, "closed after \(closed) s") }
        }
    }
}
