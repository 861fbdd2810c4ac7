import Foundation
import Testing

@testable import GeofenceKit

/// ``PrefaultedMemory``: what registering a million devices leans on changes no value.
@Suite struct PrefaultedMemoryTests {
    @Test func populatingTheReservedRoomKeepsWhatIsThereAndWhatIsWrittenLater() {
        var table: [Int64] = Array(0..<1_000)
        table.reserveCapacity(1 << 19)  // 4 MiB, past the minimum
        PrefaultedMemory.populate(capacityOf: &table)
        #expect(table == Array(0..<1_000))
        table.append(contentsOf: 1_000..<(1 << 19))
        #expect(table == Array(0..<(1 << 19)))
    }

    #if os(Linux)
        /// Populated a chunk at a time (``PrefaultedMemory/chunkBytes``), every page of a table spanning several
        /// chunks and a partial one is resident afterwards, and its contents are unchanged.
        @Test func everyChunkOfALargeTableIsPopulated() throws {
            let bytes = 2 * PrefaultedMemory.chunkBytes + 3 * 4096 + 100
            var table = [UInt8](repeating: 7, count: 10_000)
            table.reserveCapacity(bytes)
            PrefaultedMemory.populate(capacityOf: &table)
            #expect(table == [UInt8](repeating: 7, count: 10_000))
            let page = 4096
            let capacity = table.capacity
            let resident = table.withUnsafeMutableBytes { buffer -> [UInt8] in
                // The whole pages inside the reserved room, as `populate` takes them.
                let start = Int(bitPattern: buffer.baseAddress)
                let first = (start + page - 1) & ~(page - 1)
                let end = (start + capacity) & ~(page - 1)
                var flags = [UInt8](repeating: 0, count: (end - first) / page)
                let status = mincore(UnsafeMutableRawPointer(bitPattern: first), end - first, &flags)
                return status == 0 ? flags : []
            }
            try #require(resident.count > 2 * PrefaultedMemory.chunkBytes / page)
            #expect(resident.allSatisfy { $0 & 1 == 1 })
        }
    #endif

    @Test func smallOrEmptyArraysAreLeftAlone() {
        var empty: [Double] = []
        PrefaultedMemory.populate(capacityOf: &empty)
        #expect(empty.isEmpty)
        var small: [UInt8] = [1, 2, 3]
        PrefaultedMemory.populate(capacityOf: &small)
        #expect(small == [1, 2, 3])
    }
}
