import Testing

import GeofenceFormats
@testable import LocationRouter

/// Device names are numbered in the order they first come, and found again by their bytes alone.
@Suite struct DeviceNameTableTests {
    private func find(_ table: inout DeviceNameTable, _ name: String, hash: UInt64? = nil) -> Int32? {
        Array(name.utf8).withUnsafeBufferPointer {
            table.find($0, hash: hash ?? DeviceNameHash.hash($0, seed: 1))
        }
    }

    private func insert(_ table: inout DeviceNameTable, _ name: String, hash: UInt64? = nil) -> Int32 {
        Array(name.utf8).withUnsafeBufferPointer {
            table.insert($0, hash: hash ?? DeviceNameHash.hash($0, seed: 1))
        }
    }

    @Test func namesAreNumberedInOrderAndFoundAgainAfterGrowing() {
        var table = DeviceNameTable()
        for k in 0..<5_000 { #expect(insert(&table, "device-\(k)") == Int32(k)) }
        #expect(table.count == 5_000)
        for k in stride(from: 0, to: 5_000, by: 7) { #expect(find(&table, "device-\(k)") == Int32(k)) }
        #expect(find(&table, "device-5000") == nil)
        #expect(find(&table, "device-1 ") == nil)
    }

    /// Names whose hashes collide (all of them here) are still told apart by their bytes; so are names that are
    /// one Unicode string in two normalisations.
    @Test func collidingAndCanonicallyEqualNamesAreDistinct() {
        var table = DeviceNameTable()
        let names = ["café", "cafe\u{301}", "a", "ab", "", "bus-17"]
        for (k, name) in names.enumerated() { #expect(insert(&table, name, hash: 42) == Int32(k)) }
        for (k, name) in names.enumerated() { #expect(find(&table, name, hash: 42) == Int32(k)) }
        #expect(find(&table, "bus-18", hash: 42) == nil)
    }

    /// A stream's devices in the same order at every step, then reordered: each name is found as itself.
    @Test func theGuessFromTheOrderIsOnlyAShortcut() {
        var table = DeviceNameTable()
        for k in 0..<300 { _ = insert(&table, "bus-\(k)") }
        for _ in 0..<2 {
            for k in 0..<300 { #expect(find(&table, "bus-\(k)") == Int32(k)) }
        }
        for k in (0..<300).reversed() where k % 3 != 0 { #expect(find(&table, "bus-\(k)") == Int32(k)) }
        for k in 0..<300 { #expect(find(&table, "bus-\(k)") == Int32(k)) }
        #expect(find(&table, "bus-300") == nil)
    }
}
