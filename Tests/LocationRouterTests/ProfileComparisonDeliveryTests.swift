import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

/// The divergence report shows each profile's own delivery delays (`time − detectedAt`) beside its delays.
@Suite struct ProfileComparisonDeliveryTests {
    /// Device 1 crosses regions 0…4 in turn: enter at 1000·r + 100, exit 300 s later.
    static let crossings: [GeofenceEvent] = (0..<5).flatMap { r -> [GeofenceEvent] in
        let start = Int64(1_795_248_000 + 1000 * r + 100) * 1_000_000
        return [EventKind.enter, .exit].enumerated().map { index, kind in
            GeofenceEvent(
                device: 1, region: Int32(r), kind: kind, time: Timestamp(microseconds: start + Int64(index) * 300_000_000),
                latitude: 25.03, longitude: 121.56)
        }
    }

    @Test func deliveryDelaysOfTheProfileAreShownBesideItsDelays() throws {
        // Every enter decided on time but delivered 30 s (odd regions) or 90 s (even regions) later.
        let delivered = Self.crossings.map { event -> GeofenceEvent in
            guard event.kind == .enter else { return event }
            var late = event
            late.detectedAt = event.time
            late.time = Timestamp(microseconds: event.time.microseconds + (event.region % 2 == 0 ? 90 : 30) * 1_000_000)
            return late
        }
        let comparison = ProfileComparison(baseline: Self.crossings, profile: delivered, name: "ios")
        #expect(comparison.deliveredLate == 5)
        #expect(comparison.delivery.min == 30)
        #expect(comparison.delivery.max == 90)
        #expect(comparison.enter.delays.min == 30)
        let table = ProfileComparison.table([comparison])
        let row = try #require(table.split(separator: "\n").first { $0.split(separator: " ").first == "delivery" })
        #expect(row.split(separator: " ") == ["delivery", "5", "90", "90", "90", "90", "66"])
        #expect(comparison.json.contains(#""delivery":{"events":5,"delaySeconds":{"#))
    }

}
