import GeofenceKit

/// Samples for one shard, struct-of-arrays: the unit that flows from the source to a monitor.
///
/// One AsyncStream element costs about a microsecond and a region check a few nanoseconds, so samples travel
/// in batches of hundreds to thousands to amortise every hop.
public struct LocationBatch: Sendable {
    public var devices: [Int32] = []
    public var latitudes: [Double] = []
    public var longitudes: [Double] = []
    public var times: [Int64] = []
    /// When the batch's first sample entered the pipeline (``MonotonicClock`` nanoseconds): the start of
    /// every latency measured for the events it causes.
    public var ingress: UInt64 = 0

    public init(capacity: Int = 0) {
        devices.reserveCapacity(capacity)
        latitudes.reserveCapacity(capacity)
        longitudes.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
    }

    public var count: Int { devices.count }
    public var isEmpty: Bool { devices.isEmpty }

    public mutating func append(device: Int32, latitude: Double, longitude: Double, time: Timestamp) {
        if devices.isEmpty { ingress = MonotonicClock.now() }
        devices.append(device)
        latitudes.append(latitude)
        longitudes.append(longitude)
        times.append(time.microseconds)
    }
}

/// Events caused by one ``LocationBatch``: the unit that flows from a monitor to the dispatcher.
public struct EventBatch: Sendable {
    public var events: [GeofenceEvent]
    /// The ``LocationBatch/ingress`` of the samples that caused these events.
    public var ingress: UInt64

    public init(events: [GeofenceEvent], ingress: UInt64) {
        self.events = events
        self.ingress = ingress
    }
}
