#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// Each slot holds a device's number + 1, or 0 when empty; the count is a power of two.
    private var slots = [Int32](repeating: 0, count: 1024)
    /// Per device: its name's hash, where its name ends in ``nameBytes`` (it starts where the one before ends),
    /// and the device looked up after it last time (-1: none yet).
    private var hashes: [UInt64] = []
    private var nameEnds: [Int] = []
    private var successors: [Int32] = []
    private var nameBytes: [UInt8] = []
    /// The device of the previous look-up or insertion (-1: none yet).
    private var previous: Int32 = -1

    var count: Int { hashes.count }

    /// The number of the device named `name`, if it has one.
    mutating func find(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32? {
        if previous >= 0, case let guess = successors[Int(previous)], guess >= 0, hashes[Int(guess)] == hash,
            matches(Int(guess), name)
        {
            previous = guess
            return guess
        }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while case let entry = slots[slot], entry != 0 {
            let device = entry - 1
            if hashes[Int(device)] == hash, matches(Int(device), name) {
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
        hashes.append(hash)
        nameBytes.append(contentsOf: name)
        nameEnds.append(nameBytes.count)
        successors.append(-1)
        if count * 2 > slots.count {
            slots = [Int32](repeating: 0, count: slots.count * 2)
            for device in hashes.indices { place(Int32(device)) }
        } else {
            place(device)
        }
        follow(with: device)
        return device
    }

    private mutating func follow(with device: Int32) {
        if previous >= 0 { successors[Int(previous)] = device }
        previous = device
    }

    private mutating func place(_ device: Int32) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hashes[Int(device)]) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = device + 1
    }

    private func matches(_ device: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = device == 0 ? 0 : nameEnds[device - 1]
        guard nameEnds[device] - start == name.count else { return false }
        return nameBytes.withUnsafeBufferPointer { stored in
            guard let storedBase = stored.baseAddress, let nameBase = name.baseAddress else { return name.isEmpty }
            return memcmp(storedBase + start, nameBase, name.count) == 0
        }
    }
}
