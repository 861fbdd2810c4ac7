import GeofenceKit

/// Regions read ahead on one thread and moved out, each at most once, on another: the regions of one part of
/// ``CircleFeaturePrefetch``'s window.
///
/// A region taken from here is moved (its bytes copied, nothing retained or released), where an array would copy
/// it — the enum of its geometry, its strings and its device list retained, then released again when the window
/// is refilled — for every feature of the file. The slots a caller never took are released on ``removeAll()``.
///
/// One thread uses it at a time: the one filling it, then the decoder's, handed over by the window's lock. So its
/// properties are not checked for exclusive access at run time, which cost more than the moves it saves.
final class RegionSlots: @unchecked Sendable {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Region>
    @exclusivity(unchecked) private var capacity: Int
    /// Whether each slot still holds its region (it does until ``take(_:)``).
    @exclusivity(unchecked) private var held: [Bool] = []

    /// Slots for `capacity` regions before they grow.
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
        HugePages.advise(UnsafeMutableRawPointer(base), bytes: self.capacity * MemoryLayout<Region>.stride)
        held.reserveCapacity(self.capacity)
    }

    deinit {
        removeAll()
        base.deallocate()
    }

    /// The slots filled since the last ``removeAll()``.
    var count: Int { held.count }

    /// Fills the next slot with `region`.
    func append(_ region: consuming Region) {
        if held.count == capacity { grow() }
        (base + held.count).initialize(to: consume region)
        held.append(true)
    }

    /// The id of the region in slot `index`, which must not have been taken.
    func id(_ index: Int) -> String {
        precondition(held[index], "a region read ahead was taken twice")
        return (base + index).pointee.id
    }

    /// Moves the region out of slot `index`, which must not have been taken.
    func take(_ index: Int) -> Region {
        precondition(held[index], "a region read ahead was taken twice")
        held[index] = false
        return (base + index).move()
    }

    /// Releases the regions not taken and empties the slots, keeping their memory.
    func removeAll() {
        for (index, isHeld) in held.enumerated() where isHeld { (base + index).deinitialize(count: 1) }
        held.removeAll(keepingCapacity: true)
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Region>.allocate(capacity: capacity * 2)
        HugePages.advise(UnsafeMutableRawPointer(larger), bytes: capacity * 2 * MemoryLayout<Region>.stride)
        for (index, isHeld) in held.enumerated() where isHeld { (larger + index).moveInitialize(from: base + index, count: 1) }
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
