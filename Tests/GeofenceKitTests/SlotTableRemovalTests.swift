import Testing
@testable import GeofenceKit

/// A catalog device's refresh removes the regions it no longer chooses from its block of slots: through pointers
/// where the table keeps nothing but records, ids and exact radii (``SlotTable/removePlainSlots(of:keeping:)``),
/// leaving the same slots as one ``SlotTable/clear(_:)`` and ``SlotTable/move(from:to:)`` per hole.
@Suite struct SlotTableRemovalTests {
    /// A table of `count` circles with distinct ids, some flags and radii; `exactRadii` makes one radius a `Float`
    /// cannot hold, so that the table keeps every exact radius.
    static func table(_ count: Int, exactRadii: Bool, using rng: inout SplitMix64) -> SlotTable {
        var table = SlotTable()
        for id in 0..<count {
            let radius = exactRadii && id == 0 ? 100.1 : Double(10 + Int(rng.unit() * 300))
            var geometry = PackedRegion(latitude: rng.unit() * 10, longitude: rng.unit() * 10, radius: radius)
            geometry.clearance = UInt16(rng.unit() * 1_000)
            table.append(
                SlotTable.Slot(geometry: geometry, radius: radius, region: Int32(id), flags: UInt8(rng.unit() * 16)))
        }
        return table
    }

    /// What a slot holds, comparably.
    static func contents(_ table: SlotTable) -> [String] {
        (0..<table.count).map { slot in
            let record = table.packed[slot]
            return "\(table.regionID[slot]) \(record.latitude) \(record.longitude) \(record.radius) \(record.clearance) "
                + "\(record.flags) \(table.radius(slot))"
        }
    }

    @Test(arguments: [false, true])
    func removingThroughPointersLeavesTheSlotsOfOneMovePerHole(exactRadii: Bool) {
        var rng = SplitMix64(seed: 12, stream: 1, purpose: 4)
        for trial in 0..<500 {
            let count = 1 + trial % 40
            let original = Self.table(count, exactRadii: exactRadii, using: &rng)
            // A block somewhere in the table, and the ids it keeps (none, all, or a random part).
            let lower = Int(rng.unit() * Double(count)), upper = lower + Int(rng.unit() * Double(count - lower + 1))
            let share = trial % 7 == 0 ? 0 : trial % 7 == 1 ? 1 : rng.unit()
            let kept = Set((0..<count).filter { _ in rng.unit() < share }.map { Int32($0) })

            var oneByOne = original
            var end = upper, slot = lower
            while slot < end {
                if kept.contains(oneByOne.regionID[slot]) {
                    slot += 1
                    continue
                }
                oneByOne.clear(slot)
                end -= 1
                if slot != end { oneByOne.move(from: end, to: slot) }
            }
            var throughPointers = original
            #expect(throughPointers.hasPlainSlotsOnly)
            let removed = throughPointers.removePlainSlots(of: lower..<upper) { kept.contains($0) }
            #expect(removed == upper - end, "trial \(trial)")
            #expect(Self.contents(throughPointers) == Self.contents(oneByOne), "trial \(trial)")
        }
    }

    @Test func aTableWithTimersOrRareFieldsIsNotPlain() {
        var rng = SplitMix64(seed: 3)
        var timers = Self.table(5, exactRadii: false, using: &rng)
        timers.keepTimers()
        #expect(!timers.hasPlainSlotsOnly)
        var rare = Self.table(5, exactRadii: false, using: &rng)
        rare.ownLoiteringDelay[2] = 60
        #expect(!rare.hasPlainSlotsOnly)
    }
}
