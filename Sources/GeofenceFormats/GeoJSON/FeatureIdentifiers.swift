import GeofenceKit

/// The ids of a regions file's features decoded so far, and which feature had each first: a duplicate id is an
/// error naming that feature.
///
/// A file of 200,000 circles checks 200,000 ids on the decoder's one thread, so the table is built for that: the
/// hash of an id (``hash(_:)``) is computed where the feature is read, on the thread reading ahead, and the table
/// is open addressing over those hashes, comparing the ids themselves (byte for byte, as ``ExactName`` does) only
/// when two hashes are equal. The hash is not keyed: a file made to collide is slower to decode, not wrong.
struct FeatureIdentifiers {
    private struct Entry {
        var hash: UInt64
        /// The feature's index in the file; -1 for an empty entry.
        var feature: Int
        var id: String
    }

    private var entries: [Entry]
    private var count = 0

    /// A table that holds `expected` ids before it grows.
    init(expected: Int) {
        var capacity = 16
        while capacity * 3 < expected * 4 { capacity *= 2 }
        entries = Array(repeating: Entry(hash: 0, feature: -1, id: ""), count: capacity)
    }

    /// The hash the table files an id under: ``StableHash/fnv1a(_:)`` of its UTF-8 bytes.
    static func hash(_ id: String) -> UInt64 { StableHash.fnv1a(id) }

    /// Records that `feature` has `id` (whose ``hash(_:)`` is `hash`) and returns `nil`; or, when an earlier
    /// feature has the same id, returns that feature's index and records nothing.
    mutating func insert(_ id: String, hash: UInt64, feature: Int) -> Int? {
        if (count + 1) * 4 > entries.count * 3 { grow() }
        var slot = self.slot(of: hash)
        while entries[slot].feature >= 0 {
            if entries[slot].hash == hash, ExactName(entries[slot].id) == ExactName(id) { return entries[slot].feature }
            slot = (slot + 1) & (entries.count - 1)
        }
        entries[slot] = Entry(hash: hash, feature: feature, id: id)
        count += 1
        return nil
    }

    /// Where the search for `hash` starts: its bits mixed (Fibonacci hashing), since FNV's low bits alone cluster.
    private func slot(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9e37_79b9_7f4a_7c15) >> UInt64(64 - entries.count.trailingZeroBitCount))
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: Entry(hash: 0, feature: -1, id: ""), count: old.count * 2)
        for entry in old where entry.feature >= 0 {
            var slot = self.slot(of: entry.hash)
            while entries[slot].feature >= 0 { slot = (slot + 1) & (entries.count - 1) }
            entries[slot] = entry
        }
    }
}
