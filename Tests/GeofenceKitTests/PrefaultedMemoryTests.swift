import Foundation
import Testing

@testable import GeofenceKit

/// ``PrefaultedMemory`` and ``SineAndCosine``'s batch: what registering a million devices leans on changes no value.
@Suite struct PrefaultedMemoryTests {
    @Test func populatingTheReservedRoomKeepsWhatIsThereAndWhatIsWrittenLater() {
        var table: [Int64] = Array(0..<1_000)
        table.reserveCapacity(1 << 19)  // 4 MiB, past the minimum
        PrefaultedMemory.populate(capacityOf: &table)
        #expect(table == Array(0..<1_000))
        table.append(contentsOf: 1_000..<(1 << 19))
        #expect(table == Array(0..<(1 << 19)))
    }

    @Test func smallOrEmptyArraysAreLeftAlone() {
        var empty: [Double] = []
        PrefaultedMemory.populate(capacityOf: &empty)
        #expect(empty.isEmpty)
        var small: [UInt8] = [1, 2, 3]
        PrefaultedMemory.populate(capacityOf: &small)
        #expect(small == [1, 2, 3])
    }

    @Test func theBatchGivesTheLibrarysSineAndCosineBitForBit() {
        var rng = SplitMix64(seed: 15)
        let angles = (0..<4_096).map { _ in rng.unit() * 2 * .pi } + [0, .pi / 4, .pi, 2 * .pi, -1e-300, 1e6]
        var sines = [Double](repeating: .nan, count: angles.count)
        var cosines = sines
        SineAndCosine.of(angles, count: angles.count, sines: &sines, cosines: &cosines)
        for (i, angle) in angles.enumerated() {
            #expect(sines[i].bitPattern == sin(angle).bitPattern, "sin \(angle)")
            #expect(cosines[i].bitPattern == cos(angle).bitPattern, "cos \(angle)")
        }
    }
}
