import GeofenceFormats

/// Device names and their numbers, looked up by the names' bytes and their precomputed hashes
/// (``DeviceNameHash``): no `String` per sample.
///
/// Names compare as exact bytes, as ``ExactName`` compares them (two names that differ only in Unicode
/// normalisation are two devices). Streams list their devices in much the same order at every time step, so the
/// device that followed the previous look-up's last time is tried first: a comparison with a neighbour in memory
/// instead of a probe at a random place of the table. Otherwise open addressing with linear probing, at most half
/// full.
struct DeviceNameTable {
    /// What the table keeps of one device, together so that a look-up reads one record.
    private struct Entry {
        var hash: UInt64
        /// Where its name is in ``nameBytes``.
        var nameStart: Int
        var nameEnd: Int
        /// The device looked up after it last time (-1: none yet).
        var successor: Int32
    }

    /// Each slot holds a device's number + 1, or 0 when empty; the count is a power of two.
    private var slots = [Int32](repeating: 0, count: 1024)
    private var entries: [Entry] = []
    private var nameBytes: [UInt8] = []
    /// The device of the previous look-up or insertion (-1: none yet).
    private var previous: Int32 = -1

    var count: Int { entries.count }

    /// The number of the device named `name`, if it has one.
    ///
    /// The guess (the device that followed the previous one) is inlined into the router's loop, where it answers
    /// almost every look-up; the probe of the table is a call.
    @inline(__always)
    mutating func find(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32? {
        if previous >= 0, case let guess = entries[Int(previous)].successor, guess >= 0,
            entries[Int(guess)].hash == hash, matches(Int(guess), name)
        {
            previous = guess
            return guess
        }
        return probe(name, hash: hash)
    }

    /// ``find(_:hash:)`` in the table itself.
    @inline(never)
    private mutating func probe(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while case let entry = slots[slot], entry != 0 {
            let device = entry - 1
            if entries[Int(device)].hash == hash, matches(Int(device), name) {
                follow(with: device)
                return device
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Numbers a new device (the next number) named `name`, which must not be in the table.
    mutating func insert(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32 {
        let device = Int32(count)
        let nameStart = nameBytes.count
        nameBytes.append(contentsOf: name)
        entries.append(Entry(hash: hash, nameStart: nameStart, nameEnd: nameBytes.count, successor: -1))
        if count * 2 > slots.count {
            slots = [Int32](repeating: 0, count: slots.count * 2)
            for device in entries.indices { place(Int32(device)) }
        } else {
            place(device)
        }
        follow(with: device)
        return device
    }

    private mutating func follow(with device: Int32) {
        if previous >= 0 { entries[Int(previous)].successor = device }
        previous = device
    }

    private mutating func place(_ device: Int32) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entries[Int(device)].hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = device + 1
    }

    /// Whether `device`'s name is `name`: eight bytes at a time (the last eight overlapping the word before), as
    /// names of eight bytes or more are; shorter ones byte by byte.
    @inline(__always)
    private func matches(_ device: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[device]
        let count = name.count
        guard entry.nameEnd - entry.nameStart == count else { return false }
        return nameBytes.withUnsafeBufferPointer { stored in
            guard let storedBase = stored.baseAddress, let nameBase = name.baseAddress else { return count == 0 }
            let storedName = UnsafeRawPointer(storedBase + entry.nameStart)
            let given = UnsafeRawPointer(nameBase)
            guard count >= 8 else { return (0..<count).allSatisfy { stored[entry.nameStart + $0] == name[$0] } }
            var offset = 0
            while true {
                let start = min(offset, count - 8)
                guard storedName.loadUnaligned(fromByteOffset: start, as: UInt64.self)
                    == given.loadUnaligned(fromByteOffset: start, as: UInt64.self)
                else { return false }
                offset += 8
                if offset >= count { return true }
            }
        }
    }
}
