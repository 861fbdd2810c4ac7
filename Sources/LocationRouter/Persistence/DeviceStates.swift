import GeofenceKit

/// The device states a snapshot writes, each made when it is written: a snapshot cut's states, sent by the shards
/// during the run, or — the final snapshot of a run without periodic ones — read from the shards' monitors, which
/// keep them anyway, one device at a time.
///
/// Exported whole, a million devices' states (each with an array of its regions) took about 0.9 GB beside the
/// monitors that held the same state in their tables.
struct DeviceStates: Sendable {
    let count: Int
    /// The k-th state's device, without making the state.
    let device: @Sendable (Int) -> Int32
    /// The k-th state.
    let state: @Sendable (Int) -> DeviceState

    init(_ states: [DeviceState]) {
        count = states.count
        device = { states[$0].device }
        state = { states[$0] }
    }

    /// The states of the devices each shard has seen, shard after shard.
    init(shards: [RegionMonitor.FinalStates]) {
        // Where each shard's devices start among all.
        var starts: [Int] = []
        var total = 0
        for shard in shards {
            starts.append(total)
            total += shard.count
        }
        count = total
        let locate: @Sendable (Int) -> (shard: Int, index: Int) = { [starts] position in
            // The last shard starting at or before the position (a binary search: shards are few, positions many).
            var low = 0, high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= position { low = middle } else { high = middle - 1 }
            }
            return (low, position - starts[low])
        }
        device = { position in
            let (shard, index) = locate(position)
            return shards[shard].device(at: index)
        }
        state = { position in
            let (shard, index) = locate(position)
            return shards[shard].state(at: index)
        }
    }
}
