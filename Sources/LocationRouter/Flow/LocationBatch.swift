import GeofenceKit

/// Samples for one shard, struct-of-arrays: the unit that flows from the source to a monitor.
///
/// One channel hop costs about a microsecond and a region check a few nanoseconds, so samples travel
/// in batches of hundreds to thousands to amortise every hop.
public struct LocationBatch: Sendable {
    public var devices: [Int32] = []
    public var latitudes: [Double] = []
    public var longitudes: [Double] = []
    public var times: [Int64] = []
    /// Horizontal accuracy in metres, NaN where the sample has none.
    public var accuracies: [Float] = []
    /// When the batch's first sample entered the pipeline (``MonotonicClock`` nanoseconds): the start of
    /// every latency measured for the events it causes.
    public var ingress: UInt64 = 0
    /// The source's promise that no later sample for this shard is older than this (microseconds): the monitor's
    /// clock may move there and fire the timers due by then, for devices that sent nothing.
    public var watermark: Int64?
    /// A snapshot cut instead of samples: the monitor exports its state and passes the cut on to the dispatcher
    /// (see ``SnapshotCut``). Such a batch travels without a credit.
    var isSnapshotCut = false

    public init(capacity: Int = 0) {
        devices.reserveCapacity(capacity)
        latitudes.reserveCapacity(capacity)
        longitudes.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
        accuracies.reserveCapacity(capacity)
    }

    public var count: Int { devices.count }
    public var isEmpty: Bool { devices.isEmpty }

    public mutating func append(
        device: Int32, latitude: Double, longitude: Double, time: Timestamp, accuracy: Double? = nil
    ) {
        if devices.isEmpty { ingress = MonotonicClock.now() }
        devices.append(device)
        latitudes.append(latitude)
        longitudes.append(longitude)
        times.append(time.microseconds)
        accuracies.append(accuracy.map(Float.init) ?? .nan)
    }

    /// Appends up to `limit` samples without accuracy, which `write` writes through a ``SampleWriter`` straight into
    /// the batch's storage: a generated walk's way in, without the per-sample bookkeeping of `append`.
    mutating func appendSamples(upTo limit: Int, _ write: (inout SampleWriter) -> Void) {
        guard limit > 0 else { return }
        let start = count
        devices.append(contentsOf: repeatElement(0, count: limit))
        latitudes.append(contentsOf: repeatElement(0, count: limit))
        longitudes.append(contentsOf: repeatElement(0, count: limit))
        times.append(contentsOf: repeatElement(0, count: limit))
        var written = 0
        devices.withUnsafeMutableBufferPointer { devices in
            latitudes.withUnsafeMutableBufferPointer { latitudes in
                longitudes.withUnsafeMutableBufferPointer { longitudes in
                    times.withUnsafeMutableBufferPointer { times in
                        var writer = SampleWriter(
                            devices: devices.baseAddress! + start, latitudes: latitudes.baseAddress! + start,
                            longitudes: longitudes.baseAddress! + start, times: times.baseAddress! + start,
                            capacity: limit)
                        write(&writer)
                        written = writer.count
                    }
                }
            }
        }
        let unused = limit - written
        devices.removeLast(unused)
        latitudes.removeLast(unused)
        longitudes.removeLast(unused)
        times.removeLast(unused)
        accuracies.append(contentsOf: repeatElement(.nan, count: written))
        if start == 0 && written > 0 { ingress = MonotonicClock.now() }
    }

    /// Writes samples into a batch's storage, reserved beforehand (``appendSamples(upTo:_:)``).
    struct SampleWriter {
        fileprivate let devices: UnsafeMutablePointer<Int32>
        fileprivate let latitudes: UnsafeMutablePointer<Double>
        fileprivate let longitudes: UnsafeMutablePointer<Double>
        fileprivate let times: UnsafeMutablePointer<Int64>
        let capacity: Int
        private(set) var count = 0

        fileprivate init(
            devices: UnsafeMutablePointer<Int32>, latitudes: UnsafeMutablePointer<Double>,
            longitudes: UnsafeMutablePointer<Double>, times: UnsafeMutablePointer<Int64>, capacity: Int
        ) {
            (self.devices, self.latitudes, self.longitudes, self.times) = (devices, latitudes, longitudes, times)
            self.capacity = capacity
        }

        var isFull: Bool { count == capacity }

        /// Appends a sample; there must be room (`!isFull`).
        @inline(__always)
        mutating func append(_ device: Int32, _ latitude: Double, _ longitude: Double, _ time: Int64) {
            precondition(count < capacity, "a full SampleWriter")
            devices[count] = device
            latitudes[count] = latitude
            longitudes[count] = longitude
            times[count] = time
            count += 1
        }
    }

    /// Appends a sample after the source's filters, or counts it as filtered out.
    /// - Returns: whether the sample was appended.
    @discardableResult
    public mutating func append(
        device: Int32, latitude: Double, longitude: Double, time: Timestamp, accuracy: Double? = nil,
        through filter: inout LocationFilter?
    ) -> Bool {
        // Taken out and put back so that the filter's arrays are mutated in place, not copied.
        guard var active = filter.take() else {
            append(device: device, latitude: latitude, longitude: longitude, time: time, accuracy: accuracy)
            return true
        }
        let outcome = active.apply(device: device, latitude: latitude, longitude: longitude, time: time, accuracy: accuracy)
        filter = active
        guard outcome.isDelivered else { return false }
        append(device: device, latitude: outcome.latitude, longitude: outcome.longitude, time: time, accuracy: outcome.accuracy)
        return true
    }
}

/// Events caused by one ``LocationBatch``: the unit that flows from a monitor to the dispatcher.
public struct EventBatch: Sendable {
    public var events: [GeofenceEvent]
    /// The ``LocationBatch/ingress`` of the samples that caused these events.
    public var ingress: UInt64
    /// The shard that sent the batch.
    public var shard: Int
    /// A shard's state at a snapshot cut, or at its end, instead of events.
    var cut: SnapshotCut.ShardState?

    public init(events: [GeofenceEvent], ingress: UInt64, shard: Int = 0) {
        self.events = events
        self.ingress = ingress
        self.shard = shard
    }
}
