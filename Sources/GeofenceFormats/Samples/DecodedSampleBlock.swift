import GeofenceKit

/// What a block of sample lines decoded into: its samples as columns, in line order, and its rejected lines.
///
/// Columns rather than an array of ``LocationSample``s: a block holds thousands of samples, and a value per
/// sample with a `String` inside costs a reference count at every copy and an allocation per long name. A
/// device's name stays in the block's bytes, with its hash (``DeviceNameHash``), until the router needs it.
public struct DecodedSampleBlock: Sendable {
    /// One rejected line and where it falls among the samples.
    public struct Rejection: Sendable {
        /// How many of the block's samples come before the rejected line.
        public var samplesBefore: Int
        public var error: SampleDecodingError
    }

    /// The block's lines; names spelled with escapes or doubled quotes follow them, decoded.
    public internal(set) var bytes: [UInt8]
    /// Each sample's line number, the span of its device's name in ``bytes`` and the name's hash.
    public internal(set) var lineNumbers: [Int] = []
    public internal(set) var names: [Range<Int>] = []
    public internal(set) var nameHashes: [UInt64] = []
    public internal(set) var latitudes: [Double] = []
    public internal(set) var longitudes: [Double] = []
    /// Microseconds since the Unix epoch.
    public internal(set) var times: [Int64] = []
    /// Metres; NaN where the line gives none.
    public internal(set) var accuracies: [Double] = []
    /// Rejected lines (too long, malformed, invalid fields), in line order. Blank lines are neither samples nor
    /// rejections.
    public internal(set) var rejections: [Rejection] = []

    public var count: Int { times.count }

    init(bytes: [UInt8], capacity: Int) {
        self.bytes = bytes
        lineNumbers.reserveCapacity(capacity)
        names.reserveCapacity(capacity)
        nameHashes.reserveCapacity(capacity)
        latitudes.reserveCapacity(capacity)
        longitudes.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
        accuracies.reserveCapacity(capacity)
    }

    /// The name of sample `index`'s device.
    public func name(of index: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[names[index]]), as: UTF8.self) }
    }

    /// Sample `index` as a value, for tests and callers that want one.
    public func sample(_ index: Int) -> LocationSample {
        LocationSample(
            device: name(of: index), coordinate: Coordinate(unchecked: latitudes[index], longitudes[index]),
            time: Timestamp(microseconds: times[index]), accuracy: accuracies[index].isNaN ? nil : accuracies[index])
    }
}
