/// A min-heap of timers by due time: confirmations and dwells waiting for the clock.
///
/// Entries are never removed early: a slot's own state says whether a popped timer still stands, which keeps
/// cancelling free (an exit simply clears the slot's dwell time).
struct TimerQueue: Sendable {
    enum Kind: UInt8, Sendable { case confirmation, dwell }

    struct Timer: Sendable {
        var due: Int64
        var device: Int32
        var slot: Int32
        var kind: Kind
    }

    private var heap: [Timer] = []

    var count: Int { heap.count }

    mutating func push(_ timer: Timer) {
        heap.append(timer)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest timer due at or before `time`, removed; `nil` when none is due.
    mutating func popDue(upTo time: Int64) -> Timer? {
        guard let first = heap.first, first.due <= time else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && Self.precedes(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count && Self.precedes(heap[right], heap[smallest]) { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }

    /// Due time first; ties in device, slot and kind order, so firing is deterministic.
    private static func precedes(_ a: Timer, _ b: Timer) -> Bool {
        (a.due, a.device, a.slot, a.kind.rawValue) < (b.due, b.device, b.slot, b.kind.rawValue)
    }
}
