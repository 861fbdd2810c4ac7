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
        /// `enter`, `exit` and `dwell` events by region index (all of them, not only the first).
        public var fires: [Int32: Int] = [:]
        var spacing: Int64 = 0
        var lastTime = Int64.min / 2
    }

    public private(set) var capacity: Int
    public let pointsPerTrack: Int
    public let eventsPerTrack: Int
    let seed: UInt64
    /// The sampled devices' tracks, in slots that a device keeps while it is sampled.
    private var slots: [Track] = []
    private var slotOfDevice: [Int32: Int] = [:]
    /// The largest hash kept while the sample is full: devices hashing above it are never kept.
    private var threshold = UInt64.max
    private var lastDevice: Int32 = -1
    private var lastSlot = -1

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
                lastSlot = admit(device)
            }
            if lastSlot >= 0, batch.times[i] &- slots[lastSlot].lastTime >= slots[lastSlot].spacing {
                append(lastSlot, batch.latitudes[i], batch.longitudes[i], batch.times[i])
            }
        }
    }

    /// Keeps the first events of sampled devices, and counts how often each of their regions fired.
    public mutating func record(_ events: [GeofenceEvent]) {
        guard !slots.isEmpty else { return }
        for event in events where Self.hash(device: event.device, seed: seed) <= threshold {
            guard let slot = slotOfDevice[event.device] else { continue }
            // Transitions first: one `state` and one `failed` marker per device, the rest for enter, exit, dwell.
            if slots[slot].events.count < eventsPerTrack,
                event.kind.rawValue <= EventKind.dwell.rawValue || !slots[slot].events.contains(where: { $0.kind == event.kind })
            {
                slots[slot].events.append(event)
            }
            if event.kind.rawValue <= EventKind.dwell.rawValue { slots[slot].fires[event.region, default: 0] += 1 }
        }
    }

    /// The device's slot, or -1 when it is not sampled.
    private mutating func admit(_ device: Int32) -> Int {
        // Sampled devices hash at or below the threshold: most devices are turned away without a lookup.
        let hash = Self.hash(device: device, seed: seed)
        guard hash <= threshold else { return -1 }
        if let slot = slotOfDevice[device] { return slot }
        guard hash < threshold else { return -1 }
        let slot: Int
        if slots.count >= capacity, let largest = slots.indices.max(by: { slots[$0].hash < slots[$1].hash }) {
            slotOfDevice[slots[largest].device] = nil
            slots[largest] = Track(device: device, hash: hash)
            slot = largest
        } else {
            slots.append(Track(device: device, hash: hash))
            slot = slots.count - 1
        }
        slotOfDevice[device] = slot
        if slots.count >= capacity { threshold = slots.map(\.hash).max() ?? .max }
        return slot
    }

    private mutating func append(_ slot: Int, _ latitude: Double, _ longitude: Double, _ time: Int64) {
        slots[slot].latitudes.append(latitude)
        slots[slot].longitudes.append(longitude)
        slots[slot].times.append(time)
        slots[slot].lastTime = time
        guard slots[slot].times.count > pointsPerTrack else { return }
        // Full: keep every other point and double the spacing, so a track of any length stays bounded.
        var track = slots[slot]
        slots[slot] = Track(device: track.device, hash: track.hash)
        let kept = stride(from: 0, to: track.times.count, by: 2)
        track.latitudes = kept.map { track.latitudes[$0] }
        track.longitudes = kept.map { track.longitudes[$0] }
        track.times = kept.map { track.times[$0] }
        track.lastTime = track.times.last ?? .min
        let span = (track.times.last ?? 0) - (track.times.first ?? 0)
        track.spacing = max(track.spacing * 2, span / Int64(max(1, pointsPerTrack / 2)), 1)
        slots[slot] = track
    }

    /// Keeps the devices with the smallest hashes of both samples.
    public mutating func merge(_ other: TrackSampler) {
        capacity = max(capacity, other.capacity)
        slots = Array((slots + other.slots).sorted { $0.hash < $1.hash }.prefix(capacity))
        slotOfDevice = Dictionary(uniqueKeysWithValues: slots.enumerated().map { ($0.element.device, $0.offset) })
        threshold = slots.count >= capacity ? (slots.last?.hash ?? .max) : .max
        lastDevice = -1
        lastSlot = -1
    }

    /// The sampled tracks in device order.
    public var sortedTracks: [Track] { slots.sorted { $0.device < $1.device } }
}
