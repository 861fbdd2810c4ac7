import Foundation
import GeofenceKit
import Synchronization
import Testing
import TestSupport
@testable import LocationRouter
import GeofenceFormats

/// The pieces of the load-test loop on 127.0.0.1: the listener, the event collector, the driver.
@Suite struct TargetLoopTests {
    @Test func theCollectorTakesNDJSONOrArraysAndRefusesBadBodies() {
        let collector = TargetEventCollector()
        let line = #"{"device":"a","region":"r","event":"enter","time":"2026-11-21T08:00:00Z"}"#
        #expect(collector.handle(method: "POST", path: "/events", body: Array((line + "\n" + line + "\n").utf8)) == 204)
        #expect(collector.handle(method: "POST", path: "/events?batch=2", body: Array("[\(line)]".utf8)) == 204)
        #expect(collector.handle(method: "POST", path: "/events", body: Array("not json".utf8)) == 400)
        #expect(collector.handle(method: "POST", path: "/events", body: Array(#"{"device":"a"}"#.utf8)) == 400)
        #expect(collector.handle(method: "POST", path: "/elsewhere", body: []) == 404)
        #expect(collector.handle(method: "GET", path: "/events", body: []) == 405)
        #expect(collector.eventsReceived == 3)
        #expect(collector.badRequests == 2)
    }

    @Test func theListenerAnswersThePoster() async throws {
        let collector = TargetEventCollector()
        let listener = try Self.listener(for: collector)
        defer { listener.stop() }
        #expect(listener.address.port != 0)
        // A long timeout: in a full suite on two cores the listener's work can wait long for a thread.
        let poster = HTTPPoster(
            url: try #require(URL(string: "http://127.0.0.1:\(listener.address.port)/events")), timeout: 600)
        defer { poster.invalidate() }
        let line = #"{"device":"a","region":"r","event":"exit","time":1795248000}"#
        for _ in 0..<3 { #expect(await poster.post(Array((line + "\n").utf8))) }
        #expect(await poster.post(Array("{broken".utf8)) == false)
        #expect(collector.eventsReceived == 3)
        #expect(collector.badRequests == 1)
    }

    @Test func aBodyArrivingSecondsAfterItsHeadIsStillAnswered() async throws {
        let collector = TargetEventCollector()
        let listener = try Self.listener(for: collector)
        defer { listener.stop() }
        let port = listener.address.port
        // Longer than the listener's one-second receive timeout: a loaded machine or a slow link does this.
        let answer = try await inBackground {
            try Self.exchange(port: port, parts: [Self.eventHead, Self.eventLine], pause: 1.5)
        }
        #expect(String(decoding: answer ?? [], as: UTF8.self).hasPrefix("HTTP/1.1 204"))
        #expect(collector.eventsReceived == 1)
    }

    @Test func aSilentConnectionIsClosedAfterTheIdleLimit() async throws {
        let listener = try HTTPListener(address: ListenAddress(host: "127.0.0.1", port: 0), idleSeconds: 1) { _, _, _ in 204 }
        defer { listener.stop() }
        let port = listener.address.port
        // Nothing sent: the listener closes the connection (an empty answer) long before the client's 300 s wait ends.
        let answer = try await inBackground { try Self.exchange(port: port, parts: [], pause: 0) }
        #expect(answer == [])
    }

    @Test func thePosterSendsHTTPOverASocketOfItsOwn() async throws {
        let server = try WebhookTestServer { _, request in
            WebhookTestServer.Response(status: request.body.first == UInt8(ascii: "{") ? 204 : 503)
        }
        defer { server.stop() }
        let poster = HTTPPoster(url: server.url, timeout: 600)
        #expect(await poster.post(Array("{}\n".utf8)))
        #expect(await poster.post(Array("[]".utf8)) == false, "a 503 is not accepted")
        poster.invalidate()
        await server.finish()
        let request = try #require(server.exchanges.first?.request)
        // PlainHTTPClient's request, not URLSession's: an http URL loads no library (see HTTPSLibrary).
        #expect(request.headers["user-agent"] == "location-router")
        #expect(request.headers["content-type"] == "application/x-ndjson")
        #expect(HTTPPoster.unavailable(for: server.url) == nil)
    }

    @Test func theListenerKeepsAConnectionAliveBetweenRequests() async throws {
        let collector = TargetEventCollector()
        let listener = try Self.listener(for: collector)
        defer { listener.stop() }
        let port = listener.address.port
        let request = Self.eventHead + Self.eventLine
        // The second request goes over the connection of the first, after its answer.
        let answers = try await inBackground { try Self.exchange(port: port, requests: [request, request]) }
        #expect(answers.count == 2)
        #expect(answers.allSatisfy { String(decoding: $0 ?? [], as: UTF8.self).hasPrefix("HTTP/1.1 204") })
        #expect(collector.eventsReceived == 2)
    }

    /// A listener on 127.0.0.1 (a free port) that hands every request to `collector`.
    private static func listener(for collector: TargetEventCollector) throws -> HTTPListener {
        try HTTPListener(address: ListenAddress(host: "127.0.0.1", port: 0)) {
            collector.handle(method: $0, path: $1, body: $2)
        }
    }

    /// One event as an NDJSON line, and the head of a request that posts it to `/events`.
    private static let eventLine = #"{"device":"a","region":"r","event":"enter","time":1795248000}"# + "\n"
    private static let eventHead = "POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(eventLine.utf8.count)\r\n\r\n"

    /// Sends `parts` over one connection to 127.0.0.1:`port`, `pause` seconds apart, and returns the first bytes
    /// answered: empty when the listener closed the connection, nil when nothing came within 300 s.
    private static func exchange(port: UInt16, parts: [String], pause: Double) throws -> [UInt8]? {
        let fd = try connected(to: port)
        defer { close(fd) }
        for (index, part) in parts.enumerated() {
            if index > 0 { Thread.sleep(forTimeInterval: pause) }
            try sendAll(part, over: fd)
        }
        return receive(over: fd)
    }

    /// Sends each of `requests` over one connection to 127.0.0.1:`port` after the answer to the one before, and
    /// returns the first bytes of each answer (as ``exchange(port:parts:pause:)`` does).
    private static func exchange(port: UInt16, requests: [String]) throws -> [[UInt8]?] {
        let fd = try connected(to: port)
        defer { close(fd) }
        var answers: [[UInt8]?] = []
        for request in requests {
            try sendAll(request, over: fd)
            answers.append(receive(over: fd))
        }
        return answers
    }

    /// A socket connected to 127.0.0.1:`port`, whose reads wait at most 300 s.
    private static func connected(to port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 { close(fd) }
        try #require(connected == 0)
        var timeout = timeval(tv_sec: 300, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    private static func sendAll(_ text: String, over fd: Int32) throws {
        let bytes = Array(text.utf8)
        try #require(send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count)
    }

    private static func receive(over fd: Int32) -> [UInt8]? {
        var answer = [UInt8](repeating: 0, count: 512)
        let count = recv(fd, &answer, answer.count, 0)
        return count >= 0 ? Array(answer[..<count]) : nil
    }

    @Test func theDriverKeepsEachDevicesSamplesInOrder() async throws {
        let bodies = Mutex<[[UInt8]]>([])
        let listener = try HTTPListener(address: ListenAddress(host: "127.0.0.1", port: 0)) { _, _, body in
            bodies.withLock { $0.append(body) }
            return 204
        }
        defer { listener.stop() }
        let poster = HTTPPoster(
            url: try #require(URL(string: "http://127.0.0.1:\(listener.address.port)/samples")), timeout: 600)
        defer { poster.invalidate() }
        var samples: [TargetSample] = []
        for step in 0..<30 {
            for device in 0..<10 {
                samples.append(TargetSample(
                    device: "d\(device)", latitude: 25 + Double(step) * 1e-4, longitude: 121.5, time: Timestamp(seconds: Double(1_800_000_000 + step)),
                    accuracy: device == 0 ? 5 : nil))
            }
        }
        let log = await TargetDriver(poster: poster, batchSize: 7, lanes: 3).send(samples)
        #expect(log.samplesSent == 300)
        #expect(log.failedRequests == 0)
        #expect(log.requests == bodies.withLock { $0.count })
        #expect(bodies.withLock { $0.allSatisfy { $0.split(separator: 10).count <= 7 } })
        // Every sample arrived once, and each device's in time order, whatever the lanes did.
        var seen: [String: [Timestamp]] = [:]
        for body in bodies.withLock({ $0 }) {
            for line in body.split(separator: 10) {
                let sample = try SampleDecoder.decodeNDJSON(line: line, lineNumber: 1)
                seen[sample.device, default: []].append(sample.time)
                #expect((sample.accuracy != nil) == (sample.device == "d0"))
            }
        }
        #expect(seen.count == 10)
        #expect(seen.values.allSatisfy { $0.count == 30 && $0 == $0.sorted() })
        #expect(log.sentMoment(device: "d3", atOrAfter: Timestamp(seconds: 1_800_000_010.5)) != nil)
        #expect(log.sentMoment(device: "d3", atOrAfter: Timestamp(seconds: 1_800_000_030)) == nil)
    }
}
