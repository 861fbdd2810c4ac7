import GeofenceKit

/// The tracks of a seeded sample of devices, for the report's map: at most `capacity` devices, each thinned to
/// at most `pointsPerTrack` points, with the first events of each.
///
/// The sample is a bottom-k sketch: a device is kept when its seeded hash is among the `capacity` smallest
/// seen. A device in the final sample was in it from its first sample on (the admission threshold only falls),
/// so its track is whole; devices pushed out free their points. Shards sample their own devices, and
/// ``merge(_:)`` keeps the smallest hashes of all: the same seed picks the same devices whatever the sharding.
public struct TrackSampler: Sendable {
    /// One sampled device.
    public struct Track: Sendable {
        public var device: Int32
        public var hash: UInt64
        /// Positions and sample times (microseconds), at least `spacing` apart.
        public var latitudes: [Double] = []
        public var longitudes: [Double] = []
        public var times: [Int64] = []
        public var events: [GeofenceEvent] = []
        var spacing: Int64 = 0
    }

    public private(set) var capacity: Int
    public let pointsPerTrack: Int
    public let eventsPerTrack: Int
    let seed: UInt64
    public private(set) var tracks: [Int32: Track] = [:]
    /// The largest hash kept while the sample is full: devices hashing above it are never kept.
    private var threshold = UInt64.max
    private var lastDevice: Int32 = -1
    private var lastKept = false

    public init(seed: UInt64, capacity: Int = 200, pointsPerTrack: Int = 120, eventsPerTrack: Int = 16) {
        self.seed = seed
        self.capacity = max(0, capacity)
        self.pointsPerTrack = max(4, pointsPerTrack)
        self.eventsPerTrack = max(0, eventsPerTrack)
    }

    /// The device's seeded hash: its rank in the sample.
    @inline(__always)
    public static func hash(device: Int32, seed: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: seed ^ (UInt64(UInt32(bitPattern: device)) &* 0xA24B_AED4_963E_E407))
        return generator.next()
    }

    /// Records the samples of a batch that belong to sampled devices.
    public mutating func record(_ batch: LocationBatch) {
        guard capacity > 0 else { return }
        for i in 0..<batch.count {
            let device = batch.devices[i]
            // Devices come in runs (a device's time steps back to back): decide once per run.
            if device != lastDevice {
                lastDevice = device
                lastKept = admit(device)
            }
            if lastKept { append(device, batch.latitudes[i], batch.longitudes[i], batch.times[i]) }
        }
    }

    /// Keeps the first events of sampled devices.
    public mutating func record(_ events: [GeofenceEvent]) {
        guard !tracks.isEmpty else { return }
        for event in events {
            if let kept = tracks[event.device]?.events.count, kept < eventsPerTrack {
                tracks[event.device]?.events.append(event)
            }
        }
    }

    private mutating func admit(_ device: Int32) -> Bool {
        if tracks[device] != nil { return true }
        let hash = Self.hash(device: device, seed: seed)
        guard hash < threshold else { return false }
        if tracks.count >= capacity, let largest = tracks.values.max(by: { $0.hash < $1.hash }) {
            tracks[largest.device] = nil
        }
        tracks[device] = Track(device: device, hash: hash)
        if tracks.count >= capacity { threshold = tracks.values.map(\.hash).max() ?? .max }
        return true
    }

    private mutating func append(_ device: Int32, _ latitude: Double, _ longitude: Double, _ time: Int64) {
        guard var track = tracks.removeValue(forKey: device) else { return }
        defer { tracks[device] = track }
        if let last = track.times.last, time - last < track.spacing { return }
        track.latitudes.append(latitude)
        track.longitudes.append(longitude)
        track.times.append(time)
        guard track.times.count > pointsPerTrack else { return }
        // Full: keep every other point and double the spacing, so a track of any length stays bounded.
        let kept = stride(from: 0, to: track.times.count, by: 2)
        track.latitudes = kept.map { track.latitudes[$0] }
        track.longitudes = kept.map { track.longitudes[$0] }
        track.times = kept.map { track.times[$0] }
        let span = (track.times.last ?? 0) - (track.times.first ?? 0)
        track.spacing = max(track.spacing * 2, span / Int64(max(1, pointsPerTrack / 2)), 1)
    }

    /// Keeps the devices with the smallest hashes of both samples.
    public mutating func merge(_ other: TrackSampler) {
        capacity = max(capacity, other.capacity)
        let all = (Array(tracks.values) + Array(other.tracks.values)).sorted { $0.hash < $1.hash }.prefix(capacity)
        tracks = Dictionary(uniqueKeysWithValues: all.map { ($0.device, $0) })
        threshold = tracks.count >= capacity ? (all.last?.hash ?? .max) : .max
        lastDevice = -1
    }

    /// The sampled tracks in device order.
    public var sortedTracks: [Track] { tracks.values.sorted { $0.device < $1.device } }
}
