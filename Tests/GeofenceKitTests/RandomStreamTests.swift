import GeofenceKit
import Testing

/// The purposes of seeded streams: one registry, values that never change (the same seed gives the same run).
struct RandomStreamTests {
    @Test func everyPurposeHasItsOwnValue() {
        let values = RandomStream.allCases.map(\.rawValue)
        #expect(Set(values).count == values.count)
    }

    @Test func thePurposeValuesAreThoseOfEarlierRuns() {
        let values = Dictionary(uniqueKeysWithValues: RandomStream.allCases.map { ("\($0)", $0.rawValue) })
        #expect(values == [
            "walkStart": 1, "walkSteps": 2, "generatedRegions": 3, "positionNoise": 4, "playbackJitter": 5,
            "authorization": 6, "referenceService": 11, "generatedCatalog": 12, "deliveryDelay": 13, "walkStops": 14, "appState": 106,
        ])
    }

    @Test func aPurposeDrawsTheSameNumbersAsItsRawValue() {
        for purpose in RandomStream.allCases {
            var named = SplitMix64(seed: 42, stream: 7, purpose: purpose)
            var raw = SplitMix64(seed: 42, stream: 7, purpose: purpose.rawValue)
            #expect(named.next() == raw.next())
        }
    }
}
