import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

/// The score shows delivery delays: events that carry `detectedAt` split their latency into detection and delivery.
@Suite struct ScoreDeliveryTests {
    static let start: Int64 = 1_795_248_000_000_000

    @Test func matchedDelayedEventsReportTheirDeliveryAndDetection() throws {
        let truth = (0..<4).map { ScoredEvent(device: "d", region: "r\($0)", kind: .enter, time: Timestamp(microseconds: Self.start)) }
        // Decided 20 s after the crossing, delivered 100 + 10·i s after that.
        let lines = (0..<4).map { i in
            #"{"device":"d","region":"r\#(i)","event":"enter","time":"\#(Timestamp(microseconds: Self.start + (120 + 10 * Int64(i)) * 1_000_000).iso8601)","detectedAt":"\#(Timestamp(microseconds: Self.start + 20_000_000).iso8601)"}"#
        }
        let events = try EventFileReader.read(Array(lines.joined(separator: "\n").utf8)).events
        #expect(events.allSatisfy { $0.detectedAt != nil })
        let score = EventMatcher(tolerance: 600).score(truth: truth, events: events)
        #expect(score.total.matched == 4)
        #expect(score.detection?.max == 20 && score.detection?.p50 == 20)
        #expect(score.delivery?.p50 == 110 && score.delivery?.max == 130)
        #expect(score.value(at: "deliverySeconds.max") == 130)
        #expect(score.json.contains(#""deliverySeconds":{"p50":110,"#))
        #expect(score.text.contains("delivery (event − detectedAt): p50 110 s"))
        // Events delivered at once have neither.
        let instant = EventMatcher(tolerance: 600).score(truth: truth, events: truth)
        #expect(instant.delivery == nil && !instant.json.contains("deliverySeconds"))
    }
}
