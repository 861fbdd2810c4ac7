import GeofenceKit

/// What the report's map draws: region shapes with how often each fired, the thinned tracks of a seeded sample
/// of devices, and those devices' first events.
public struct RunMap: Sendable {
    public struct Region: Sendable {
        public var id: String
        public var geometry: RegionGeometry
        /// `enter`, `exit` and `dwell` events of this region; `nil` when not counted (too many regions).
        public var fired: Int?
    }

    public struct Track: Sendable {
        public var device: String
        public var latitudes: [Double]
        public var longitudes: [Double]
        /// Sample times, in seconds after ``RunMap/start``.
        public var seconds: [Double]
    }

    public struct Event: Sendable {
        public var kind: EventKind
        public var device: String
        public var region: String
        public var latitude: Double
        public var longitude: Double
        public var seconds: Double
    }

    /// At most this many regions are drawn: a region file's (its most fired when it has more), or the
    /// generated regions of the first sampled devices, or a generated catalog's regions that they fired, the most
    /// fired first (fewer, as each device's regions overlap the others').
    public static let regionLimit = 2_000
    public static let generatedRegionLimit = 600

    public var regions: [Region] = []
    /// Regions defined in the run, drawn or not.
    public var regionsTotal = 0
    /// Where region selection came from: `"file"` (a region file), `"sampledDevices"` (generated regions of
    /// the sampled devices) or `"sampledDevicesCatalog"` (the regions of a generated catalog that they fired).
    public var regionsSource = "file"
    public var tracks: [Track] = []
    public var events: [Event] = []
    /// Devices in the run, and the seed that chose the sample.
    public var devicesTotal = 0
    public var seed: UInt64 = 0
    /// The earliest sampled time (track times are offsets from it).
    public var start = Timestamp(microseconds: 0)

    public init() {}
}

extension RunMap {
    /// The map of a finished run.
    init(
        sampler: TrackSampler, wiring: Wiring, regions: [GeofenceKit.Region]?, fires: [UInt32]?, devices: Int,
        seed: UInt64
    ) {
        self.init()
        let sampled = sampler.sortedTracks
        devicesTotal = devices
        self.seed = seed
        let earliest = sampled.compactMap(\.times.first).min() ?? 0
        start = Timestamp(microseconds: earliest)
        func offset(_ time: Int64) -> Double { Double(time - earliest) / 1e6 }
        tracks = sampled.map {
            Track(
                device: wiring.deviceNames.name(of: $0.device), latitudes: $0.latitudes, longitudes: $0.longitudes,
                seconds: $0.times.map(offset))
        }
        events = sampled.flatMap(\.events).map {
            Event(
                kind: $0.kind, device: wiring.deviceNames.name(of: $0.device),
                region: $0.region < 0 ? "" : wiring.regionNames.name(of: $0.region),
                latitude: $0.latitude, longitude: $0.longitude, seconds: offset($0.time.microseconds))
        }
        func fired(_ index: Int) -> Int? { fires.flatMap { index < $0.count ? Int($0[index]) : nil } }
        if let regions {
            regionsSource = "file"
            regionsTotal = regions.count
            var order = Array(regions.indices)
            if regions.count > Self.regionLimit {
                order.sort { (fired($0) ?? 0, -$0) > (fired($1) ?? 0, -$1) }
                order = Array(order.prefix(Self.regionLimit)).sorted()
            }
            self.regions = order.map { Region(id: regions[$0].id, geometry: regions[$0].geometry, fired: fired($0)) }
        } else if case .catalog = wiring.regionNames, let catalog = wiring.catalog {
            // A generated catalog: no device has regions of its own, so the map draws the catalog's regions that the
            // sampled devices fired, the most fired first.
            regionsSource = "sampledDevicesCatalog"
            regionsTotal = wiring.regionCount(devices: devices)
            let fires = sampled.reduce(into: [Int32: Int]()) { fires, track in fires.merge(track.fires, uniquingKeysWith: +) }
            self.regions = fires.sorted { ($0.value, -$0.key) > ($1.value, -$1.key) }.prefix(Self.generatedRegionLimit)
                .sorted { $0.key < $1.key }
                .map { Region(id: wiring.regionNames.name(of: $0.key), geometry: catalog.region($0.key).geometry, fired: $0.value) }
        } else {
            regionsSource = "sampledDevices"
            regionsTotal = wiring.regionCount(devices: devices)
            var drawn: [Region] = []
            for track in sampled where drawn.count < Self.generatedRegionLimit {
                for region in wiring.lookup(track.device).prefix(Self.generatedRegionLimit - drawn.count) {
                    drawn.append(
                        Region(
                            id: wiring.regionNames.name(of: region.id), geometry: region.geometry,
                            fired: track.fires[region.id] ?? 0))
                }
            }
            self.regions = drawn
        }
    }
}
