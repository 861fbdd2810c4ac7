import GeofenceKit

/// Each shard's samples while ``SampleStreamRouter`` gathers them, until they go out as a ``LocationBatch``.
///
/// The router appends every sample of the stream to one shard's batch. Appending to a ``LocationBatch`` is five
/// `Array.append`s, each checking that its array is unique and has room and storing the array back into the batch
/// held in the router's array of batches: a third of the router's time, one sample at a time. Here every shard's
/// columns are storage allocated once, a sample is five stores, and ``take(_:)`` copies a shard's filled part out
/// as the batch that is sent (about 32 bytes a sample, in bulk).
final class PendingBatches {
    /// How many samples a shard's batch holds at most.
    let capacity: Int
    /// Shard `s`'s samples are at `s * capacity ..< s * capacity + counts[s]` of each column.
    private let counts: UnsafeMutableBufferPointer<Int>
    /// When each shard's pending batch received its first sample (``LocationBatch/ingress``).
    private let ingress: UnsafeMutableBufferPointer<UInt64>
    private let devices: UnsafeMutablePointer<Int32>
    private let latitudes: UnsafeMutablePointer<Double>
    private let longitudes: UnsafeMutablePointer<Double>
    private let times: UnsafeMutablePointer<Int64>
    private let accuracies: UnsafeMutablePointer<Float>

    init(shards: Int, capacity: Int) {
        precondition(shards > 0 && capacity > 0)
        self.capacity = capacity
        counts = .allocate(capacity: shards)
        counts.initialize(repeating: 0)
        ingress = .allocate(capacity: shards)
        ingress.initialize(repeating: 0)
        let total = shards * capacity
        devices = .allocate(capacity: total)
        latitudes = .allocate(capacity: total)
        longitudes = .allocate(capacity: total)
        times = .allocate(capacity: total)
        accuracies = .allocate(capacity: total)
    }

    deinit {
        counts.deallocate()
        ingress.deallocate()
        devices.deallocate()
        latitudes.deallocate()
        longitudes.deallocate()
        times.deallocate()
        accuracies.deallocate()
    }

    var shardCount: Int { counts.count }

    func count(of shard: Int) -> Int { counts[shard] }

    func isFull(_ shard: Int) -> Bool { counts[shard] == capacity }

    /// Appends a sample to `shard`'s batch, which must not be full (``isFull(_:)``).
    /// - Parameter accuracy: metres, NaN for none.
    @inline(__always)
    func append(shard: Int, device: Int32, latitude: Double, longitude: Double, time: Int64, accuracy: Float) {
        let count = counts[shard]
        precondition(count < capacity, "a full pending batch")
        if count == 0 { ingress[shard] = MonotonicClock.now() }
        let slot = shard * capacity + count
        devices[slot] = device
        latitudes[slot] = latitude
        longitudes[slot] = longitude
        times[slot] = time
        accuracies[slot] = accuracy
        counts[shard] = count + 1
    }

    /// `shard`'s samples as a batch, which leaves the shard's pending batch empty.
    func take(_ shard: Int) -> LocationBatch {
        let start = shard * capacity
        let count = counts[shard]
        var batch = LocationBatch()
        batch.devices = Array(UnsafeBufferPointer(start: devices + start, count: count))
        batch.latitudes = Array(UnsafeBufferPointer(start: latitudes + start, count: count))
        batch.longitudes = Array(UnsafeBufferPointer(start: longitudes + start, count: count))
        batch.times = Array(UnsafeBufferPointer(start: times + start, count: count))
        batch.accuracies = Array(UnsafeBufferPointer(start: accuracies + start, count: count))
        batch.ingress = ingress[shard]
        counts[shard] = 0
        return batch
    }
}
