import Foundation
import Testing
@testable import LocationRouter

/// The transport that `https://` URLs go through (a `URLSession` in the library loaded at run time), exercised
/// over plain http (the test server has no TLS; the session's handling of the answer is the same).
@Suite struct WebhookHTTPSTransportTests {
    @Test func aTrickledBodyCannotOutlastTheTimeout() async throws {
        // A 200 head, then one body byte every 100 ms for 60 s: each byte restarts the session's own idle timeout.
        let server = try WebhookTestServer { _, _ in
            WebhookTestServer.Response(status: 200, answer: .trickledBody(count: 600, interval: 0.1))
        }
        defer { server.stop() }
        var configuration = try WebhookConfiguration(url: server.url)
        configuration.timeout = 0.5
        let transport = HTTPSTransport(configuration: configuration.normalized, library: try HTTPSLibrary.shared.get())
        let outcome = await transport.send(Data("[]".utf8))
        transport.invalidate()
        await server.finish()

        // Without the request's own deadline, the session waited for the whole body and said "delivered".
        #expect(outcome == .retryable(reason: "no complete answer within 0.5 s", retryAfter: nil))
        #expect(server.exchanges.first?.clientClosedAfter != nil, "hung up before the 60 s body ended")
    }

    @Test func aPromptAnswerIsClassifiedAsBefore() async throws {
        let server = try WebhookTestServer { _, _ in WebhookTestServer.Response(status: 503, headers: [("Retry-After", "2")]) }
        defer { server.stop() }
        let transport = HTTPSTransport(configuration: try WebhookConfiguration(url: server.url).normalized, library: try HTTPSLibrary.shared.get())
        #expect(await transport.send(Data("[]".utf8)) == .retryable(reason: "HTTP 503", retryAfter: 2))
        transport.invalidate()
    }

    @Test func cancellingTheCallerEndsTheRequestAtOnce() async throws {
        // The answer's body trickles for 10 minutes, and the timeout is as long: only the cancellation ends the
        // request soon. (With the default 10 s timeout the test failed once in a suite run that kept it 266 s on a
        // loaded machine: most likely the request expired before the cancellation reached it.)
        let server = try WebhookTestServer { _, _ in
            WebhookTestServer.Response(status: 200, answer: .trickledBody(count: 6_000, interval: 0.1))
        }
        defer { server.stop() }
        var configuration = try WebhookConfiguration(url: server.url)
        configuration.timeout = 600
        let transport = HTTPSTransport(configuration: configuration.normalized, library: try HTTPSLibrary.shared.get())
        let attempt = Task { await transport.send(Data("[]".utf8)) }
        try await Task.sleep(nanoseconds: 200_000_000)
        attempt.cancel()
        let outcome = await attempt.value
        #expect(outcome == .cancelled, "\(outcome)")
        transport.cancelAll()
        #expect(await transport.send(Data("[]".utf8)) == .cancelled, "refused after cancelAll")
        await server.finish()
    }
}
