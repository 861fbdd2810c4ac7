import GeofenceKit

/// What a block of sample lines decoded into: its samples, in line order, and its rejected lines.
///
/// Each sample is a plain value with no `String` inside: a block holds thousands of samples, and a name per sample
/// would cost an allocation per long name and a reference count at every copy. A device's name stays in the
/// block's bytes, with its hash (``DeviceNameHash``), until the router needs it. One array of samples rather than a
/// column per field: a line then costs one append (one uniqueness and capacity check) instead of seven, and the
/// router, which reads every field of a sample, finds them together.
public struct DecodedSampleBlock: Sendable {
    /// One valid line's values.
    public struct Sample: Sendable {
        /// The line's number in the stream.
        public var lineNumber: Int
        /// The span of the device's name in ``DecodedSampleBlock/bytes``, and the name's hash.
        public var name: Range<Int>
        public var nameHash: UInt64
        public var latitude: Double
        public var longitude: Double
        /// Microseconds since the Unix epoch.
        public var time: Int64
        /// Metres; NaN where the line gives none.
        public var accuracy: Double
    }

    /// One rejected line and where it falls among the samples.
    public struct Rejection: Sendable {
        /// How many of the block's samples come before the rejected line.
        public var samplesBefore: Int
        public var error: SampleDecodingError
    }

    /// The block's lines; names spelled with escapes or doubled quotes follow them, decoded.
    public internal(set) var bytes: [UInt8]
    public internal(set) var samples: [Sample] = []
    /// Rejected lines (too long, malformed, invalid fields), in line order. Blank lines are neither samples nor
    /// rejections.
    public internal(set) var rejections: [Rejection] = []

    public var count: Int { samples.count }

    /// - Parameter samples: an empty array to fill (a finished block's, whose storage is kept when nothing else
    ///   holds it: it is moved in, not copied).
    init(bytes: [UInt8], samples: consuming [Sample] = [], capacity: Int) {
        self.bytes = bytes
        self.samples = consume samples
        self.samples.reserveCapacity(capacity)
    }

    /// The name of sample `index`'s device.
    public func name(of index: Int) -> String {
        bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[samples[index].name]), as: UTF8.self)
        }
    }

    /// Sample `index` as a value, for tests and callers that want one.
    public func sample(_ index: Int) -> LocationSample {
        let sample = samples[index]
        return LocationSample(
            device: name(of: index), coordinate: Coordinate(unchecked: sample.latitude, sample.longitude),
            time: Timestamp(microseconds: sample.time), accuracy: sample.accuracy.isNaN ? nil : sample.accuracy)
    }
}
