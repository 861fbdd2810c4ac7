import Foundation
import GeofenceKit
import Synchronization
import Testing
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

    @Test func theListenerAnswersOverHTTPAndKeepsConnectionsAlive() async throws {
        let collector = TargetEventCollector()
        let listener = try HTTPListener(address: ListenAddress(host: "127.0.0.1", port: 0)) {
            collector.handle(method: $0, path: $1, body: $2)
        }
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
