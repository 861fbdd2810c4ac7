import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

/// The event fields that issue 14 adds: `detectedAt`, the CLMonitor `state`, and `visit` events — each only where
/// it applies, so events of the `exact` profile keep their bytes.
@Suite struct PlatformEventEncodingTests {
    static let start: Int64 = 1_795_248_000_000_000

    static func line(_ event: GeofenceEvent) -> String {
        EventEncoderTests.line(event)
    }

    @Test func aDelayedEventCarriesWhenItWasDecided() {
        var event = GeofenceEvent(
            device: 3, region: 61, kind: .exit, time: Timestamp(microseconds: Self.start + 200_500_000), latitude: 25, longitude: 121)
        event.detectedAt = Timestamp(microseconds: Self.start + 20_000_000)
        #expect(Self.line(event) == #"{"device":"device-3","region":"device-3/r1","event":"exit","time":"2026-11-21T08:03:20.5Z","detectedAt":"2026-11-21T08:00:20Z","lat":25.0,"lon":121.0,"seq":1}"# + "\n")
        event.detectedAt = nil
        #expect(!Self.line(event).contains("detectedAt"))
    }

    @Test func conditionStatesOfTheCLMonitorProfile() {
        var enter = GeofenceEvent(device: 0, region: 0, kind: .enter, time: Timestamp(microseconds: Self.start), latitude: 1, longitude: 2)
        enter.condition = .satisfied
        #expect(Self.line(enter).contains(#""event":"enter","state":"satisfied","time":"#))
        var first = GeofenceEvent(
            device: 0, region: 0, kind: .state, time: Timestamp(microseconds: Self.start), latitude: 1, longitude: 2, inside: false)
        first.condition = .unsatisfied
        #expect(Self.line(first).contains(#""event":"state","inside":false,"state":"unsatisfied","time":"#))
        var refused = GeofenceEvent(
            device: 0, region: 20, kind: .failed, time: Timestamp(microseconds: Self.start), latitude: 1, longitude: 2,
            failure: .conditionLimitExceeded, code: 0)
        refused.condition = .unmonitored
        #expect(Self.line(refused) == #"{"device":"device-0","region":"device-1/r0","event":"failed","code":0,"reason":"conditionLimitExceeded","state":"unmonitored","time":"2026-11-21T08:00:00Z","seq":1}"# + "\n")
    }

    @Test func visitsHaveNoRegionAndDeparturesTheirDuration() throws {
        var arrival = GeofenceEvent(
            device: 7, region: -1, kind: .visit, time: Timestamp(microseconds: Self.start + 300_000_000), latitude: 25, longitude: 121)
        arrival.visit = .arrival
        arrival.arrival = Timestamp(microseconds: Self.start)
        #expect(Self.line(arrival) == #"{"device":"device-7","event":"visit","visit":"arrival","time":"2026-11-21T08:05:00Z","arrival":"2026-11-21T08:00:00Z","lat":25.0,"lon":121.0,"seq":1}"# + "\n")
        var departure = arrival
        departure.visit = .departure
        departure.time = Timestamp(microseconds: Self.start + 912_250_000)
        let line = Self.line(departure)
        #expect(line.contains(#""visit":"departure","time":"2026-11-21T08:15:12.25Z","arrival":"2026-11-21T08:00:00Z","duration":912.25,"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["region"] == nil)
    }
}
