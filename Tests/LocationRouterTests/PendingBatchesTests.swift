import Testing

@testable import LocationRouter

/// Each shard's pending samples come out as a batch with exactly what was appended to that shard, in order, and the
/// shard starts empty again.
@Suite struct PendingBatchesTests {
    @Test func eachShardsSamplesComeOutInOrderAndTheShardEmpties() {
        let pending = PendingBatches(shards: 3, capacity: 4)
        for k in 0..<10 {
            let shard = k % 3
            guard !pending.isFull(shard) else { continue }
            pending.append(
                shard: shard, device: Int32(k), latitude: Double(k) + 0.5, longitude: -Double(k),
                time: Int64(k) * 1_000, accuracy: k == 4 ? .nan : Float(k))
        }
        #expect(pending.isFull(0))
        #expect(pending.count(of: 1) == 3)
        let batch = pending.take(1)
        #expect(batch.devices == [1, 4, 7])
        #expect(batch.latitudes == [1.5, 4.5, 7.5])
        #expect(batch.longitudes == [-1, -4, -7])
        #expect(batch.times == [1_000, 4_000, 7_000])
        #expect(batch.accuracies[0] == 1 && batch.accuracies[1].isNaN && batch.accuracies[2] == 7)
        #expect(batch.ingress > 0)
        #expect(pending.count(of: 1) == 0)
        #expect(pending.take(1).isEmpty)
        #expect(pending.take(0).devices == [0, 3, 6, 9])
        #expect(pending.take(2).devices == [2, 5, 8])
    }
}
