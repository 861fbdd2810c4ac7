import GeofenceKit

/// The ids of a regions file's features decoded so far, and which feature had each first: a duplicate id is an
/// error naming that feature.
///
/// A file of 200,000 circles checks 200,000 ids on the decoder's one thread, so the table is built for that: the
/// hash of an id (``hash(_:)``) is computed where the feature is read, on the thread reading ahead, and the table
/// is open addressing over those hashes, comparing the ids themselves (byte for byte, as ``ExactName`` does) only
/// when two hashes agree. The hash is not keyed: a file made to collide is slower to decode, not wrong.
///
/// The slots are one word each — 32 bits of the hash and where the id is recorded — so that the table a large
/// file needs (4 MB for 200,000 ids) stays small enough for the processor's caches and address translation: each
/// insert probes a random slot, and a table of strings four times the size spent most of its time waiting for
/// memory. The ids and their features are kept in the order recorded, written one after the other.
struct FeatureIdentifiers {
    /// 0 for an empty slot; else the hash's tag in the high half and 1 + the id's place in `recorded`.
    private var slots: [UInt64]
    private var recorded: [(id: String, feature: Int)] = []
    /// What ``prefetch(_:)`` read, kept so that its loads are not optimised away.
    private var prefetched: UInt64 = 0

    /// A table that holds `expected` ids before it grows.
    init(expected: Int) {
        var capacity = 16
        while capacity * 3 < expected * 4 { capacity *= 2 }
        slots = Self.emptySlots(capacity)
        recorded.reserveCapacity(expected)
        HugePages.advise(capacityOf: &recorded)
    }

    /// The hash the table files an id under: ``StableHash/fnv1a(_:)`` of its UTF-8 bytes.
    static func hash(_ id: String) -> UInt64 { StableHash.fnv1a(id) }

    /// Records that `feature` has `id` (whose ``hash(_:)`` is `hash`) and returns `nil`; or, when an earlier
    /// feature has the same id, returns that feature's index and records nothing.
    mutating func insert(_ id: String, hash: UInt64, feature: Int) -> Int? {
        if (recorded.count + 1) * 4 > slots.count * 3 { grow() }
        let tag = Self.tag(of: hash)
        let mask = slots.count - 1
        var slot = self.slot(of: tag)
        while slots[slot] != 0 {
            if UInt32(truncatingIfNeeded: slots[slot] >> 32) == tag {
                let earlier = recorded[Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1]
                if ExactName(earlier.id) == ExactName(id) { return earlier.feature }
            }
            slot = (slot + 1) & mask
        }
        recorded.append((id, feature))
        slots[slot] = UInt64(tag) << 32 | UInt64(recorded.count)
        return nil
    }

    /// Reads the slot where the search for `hash` starts, ahead of its ``insert(_:hash:feature:)``.
    ///
    /// The slot is a random place in megabytes of table, so an insert waits for memory; loads issued back to back
    /// for the next several ids wait for it together, and their inserts then find the slots in the cache.
    mutating func prefetch(_ hash: UInt64) {
        prefetched &+= slots[slot(of: Self.tag(of: hash))]
    }

    /// The hash's bits mixed (Fibonacci hashing, since FNV's low bits alone cluster), of which the slot is the top.
    private static func tag(of hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (hash &* 0x9e37_79b9_7f4a_7c15) >> 32)
    }

    /// Where the search for `tag` starts: its top bits, as many as the table's size has.
    private func slot(of tag: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(tag) << 32) >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    /// `count` empty slots, in huge pages when the table is large (``HugePages``): zeroed, the 4 MB of a 200,000-id
    /// table otherwise faulted page by page on the decoder's thread before its first feature.
    private static func emptySlots(_ count: Int) -> [UInt64] {
        Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                HugePages.advise(UnsafeMutableRawPointer(base), bytes: count * MemoryLayout<UInt64>.stride)
            }
            buffer.initialize(repeating: 0)
            initialized = count
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Self.emptySlots(old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry != 0 {
            var slot = self.slot(of: UInt32(truncatingIfNeeded: entry >> 32))
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}
