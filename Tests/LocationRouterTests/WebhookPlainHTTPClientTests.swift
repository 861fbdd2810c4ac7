import Foundation
import Testing
@testable import LocationRouter

/// The webhook's own `http://` client against a real server on 127.0.0.1: what it sends, the one deadline, the
/// body cap, and cancellation that ends an exchange at once.
@Suite struct WebhookPlainHTTPClientTests {
    /// Sends nothing that completes a head, one byte every 100 ms, and notices the client hanging up.
    static let stall = WebhookTestServer.Response(status: 0, answer: .trickle(head: [], count: 6_000, interval: 0.1))

    @Test func theRequestIsAPostWithItsLengthHostAndConnectionClose() async throws {
        let server = try WebhookTestServer()
        defer { server.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/hooks/events?source=test"))
        let client = PlainHTTPClient(url: url, timeout: 10)
        let result = await client.post(Data("[{\"a\":1}]".utf8))

        guard case .answered(let head, _) = result else {
            Issue.record("no answer: \(result)")
            return
        }
        #expect(head.status == 200)
        let request = try #require(server.requests.first?.request)
        #expect(request.method == "POST")
        #expect(request.path == "/hooks/events?source=test")
        #expect(request.headers["host"] == "127.0.0.1:\(server.port)")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["content-length"] == "9")
        #expect(request.headers["connection"] == "close")
        #expect(request.body == Array("[{\"a\":1}]".utf8))
    }

    @Test func credentialsInTheURLAreSentAsBasicAuthorization() async throws {
        let server = try WebhookTestServer()
        defer { server.stop() }
        let url = try #require(URL(string: "http://hook%20user:p%40ss@127.0.0.1:\(server.port)/"))
        _ = await PlainHTTPClient(url: url, timeout: 10).post(Data("[]".utf8))

        let expected = "Basic " + Data("hook user:p@ss".utf8).base64EncodedString()
        #expect(server.requests.first?.request.headers["authorization"] == expected)
    }

    @Test func anEndlessBodyIsReadOnlyUpToTheCap() async throws {
        let server = try WebhookTestServer { _, _ in
            // No framing: the body lasts until the connection closes, which this server never does by itself.
            WebhookTestServer.Response(status: 200, answer: .endless(head: WebhookTestServer.Answer.head()))
        }
        defer { server.stop() }
        let result = await PlainHTTPClient(url: server.url, timeout: 10).post(Data("[]".utf8))

        #expect(result == .answered(try #require(HTTPResponseHead(Array("HTTP/1.1 200 OK".utf8)[...])), bodyBytes: PlainHTTPClient.bodyLimit))
        await server.finish()
        #expect(server.exchanges.first?.clientClosedAfter != nil, "the client hung up instead of reading on")
    }

    @Test func theDeadlineEndsAnExchangeThatNeverCompletesItsHead() async throws {
        let server = try WebhookTestServer { _, _ in Self.stall }
        defer { server.stop() }
        let result = await PlainHTTPClient(url: server.url, timeout: 0.3).post(Data("[]".utf8))
        await server.finish()

        // The server's end of the trickle would have been "closed in the middle of the answer".
        #expect(result == .failed("no complete answer within 0.3 s"))
        // Measured by the server's thread: the test's task may wait long for a thread when the suite runs.
        let closed = try #require(server.exchanges.first?.clientClosedAfter)
        // A loaded machine may run the client's deadline seconds late; a minute still tells it from the trickle's end.
        #expect(closed < 0.3 + 60, "hung up at the deadline, not at the end of the server's 600 s trickle")
    }

    @Test func cancellingTheTaskEndsTheExchangeAtOnce() async throws {
        let server = try WebhookTestServer { _, _ in Self.stall }
        defer { server.stop() }
        let client = PlainHTTPClient(url: server.url, timeout: 600)
        let exchange = Task { await client.post(Data("[]".utf8)) }
        try await Self.waitUntil { server.requests.count == 1 }
        exchange.cancel()
        let result = await exchange.value
        await server.finish()

        #expect(result == .cancelled)
        #expect(server.exchanges.first?.clientClosedAfter != nil, "hung up long before the 600 s trickle and timeout ended")
    }

    @Test func cancelAllEndsEveryExchangeInFlightAndRefusesNewOnes() async throws {
        let server = try WebhookTestServer { _, _ in Self.stall }
        defer { server.stop() }
        let client = PlainHTTPClient(url: server.url, timeout: 600)
        let first = Task { await client.post(Data("[1]".utf8)) }
        let second = Task { await client.post(Data("[2]".utf8)) }
        try await Self.waitUntil { server.requests.count == 2 }
        client.cancelAll()

        #expect(await first.value == .cancelled)
        #expect(await second.value == .cancelled)
        #expect(await client.post(Data("[3]".utf8)) == .cancelled)
        await server.finish()
        #expect(server.requests.count == 2, "the refused exchange never connected")
        #expect(server.exchanges.allSatisfy { $0.clientClosedAfter != nil }, "both hung up before the trickles ended")
    }

    /// Polls `condition` until it holds, for at most ten minutes: in a full run on two cores, the other suites'
    /// synchronous work can keep a test's tasks from a thread for minutes (two minutes were seen to be too few), so
    /// the bound only keeps a broken client from hanging the suite; the trickle outlasts it.
    static func waitUntil(_ condition: () -> Bool) async throws {
        let clock = MonotonicTestClock()
        while !condition() {
            guard clock.seconds < 600 else {
                Issue.record("gave up waiting after 600 s")
                throw CancellationError()
            }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    @Test func aRefusedConnectionFailsWithTheReason() async throws {
        let server = try WebhookTestServer(listenAfter: nil)
        defer { server.stop() }
        let result = await PlainHTTPClient(url: server.url, timeout: 5).post(Data("[]".utf8))

        guard case .failed(let reason) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(reason.contains("cannot connect to 127.0.0.1:\(server.port)"))
    }
}
