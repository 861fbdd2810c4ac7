import GeofenceKit

/// One slice of a run that is split over several processes: partition `index` of `count`.
///
/// Every process of a partitioned run is given the same configuration and seed and simulates only its own
/// devices, so that the union of the `count` partitions' events is exactly one whole run's:
///
/// - generated devices (random walk, GPX playback, routes): device `d` belongs to partition `d mod count`;
///   every seeded quantity of a device is a function of the seed and `d` alone, and devices keep their names
///   (`device-d`);
/// - sample streams: the device whose id is `id` belongs to partition `fnv1a64(UTF-8 of id) mod count`
///   (``stableHash(_:)``), so every process may read the same stream and skip what is not its own.
public struct Partition: Sendable, Equatable, CustomStringConvertible {
    /// This process's partition, `0 ..< count`.
    public let index: Int
    /// How many partitions the run is split into, `1 ... 65,536`.
    public let count: Int

    /// The largest number of partitions.
    public static let maximumCount = 65_536

    /// The whole run: one partition.
    public static let whole = Partition(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Partition `index` of `count`; `nil` unless `0 ≤ index < count ≤ 65,536`.
    public init?(index: Int, count: Int) {
        guard (1...Self.maximumCount).contains(count), (0..<count).contains(index) else { return nil }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Parses `I/N` (e.g. `3/8`).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { return nil }
        self.init(index: index, count: count)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Whether the run is split at all.
    public var isWhole: Bool { count == 1 }

    /// Whether generated device `device` belongs to this partition.
    public func owns(device: Int) -> Bool { device % count == index }

    /// Whether the device of a sample stream named `id` belongs to this partition.
    public func owns(deviceID id: String) -> Bool {
        count == 1 || Int(Self.stableHash(id) % UInt64(count)) == index
    }

    /// How many of the generated devices `0 ..< devices` belong to this partition.
    public func deviceCount(of devices: Int) -> Int {
        devices > index ? (devices - index + count - 1) / count : 0
    }

    /// FNV-1a, 64 bits, of the UTF-8 bytes of `text`: stable across processes, machines and versions.
    public static func stableHash(_ text: String) -> UInt64 { StableHash.fnv1a(text) }
}

extension Partition {
    /// The first generated device of monitor shard `shard` (of `shards`) in this partition: device `d` of the
    /// partition goes to shard `(d / count) mod shards`, so a shard's devices are `first, first + stride, …`.
    func firstDevice(ofShard shard: Int, shards: Int) -> Int { index + count * shard }

    /// The distance between two generated devices of one shard of this partition.
    func deviceStride(shards: Int) -> Int { count * shards }
}
