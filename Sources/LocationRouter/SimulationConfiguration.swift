import Foundation
import GeofenceKit

/// Everything a run needs, independent of how it was described (config file, flags, or code).
public struct SimulationConfiguration: Sendable {
    public enum Source: Sendable {
        case randomWalk(RandomWalkConfiguration)
        case samples(SampleInput)
        /// Traces (from GPX files or a route) played by `PlaybackConfiguration.devices` devices.
        case playback([Trace], PlaybackConfiguration)
    }

    public var source: Source
    /// Regions from a region file, filed for the devices; `nil` means the random walk generates regions for each
    /// device.
    public var regionCatalog: RegionCatalog?
    /// The region file's regions (``regionCatalog``'s), in file order; set, they are filed at once.
    public var regions: [Region]? {
        get { regionCatalog?.regions }
        set { regionCatalog = newValue.map(RegionCatalog.init(regions:)) }
    }
    public var settings: MonitorSettings
    /// The profile's name, for the report.
    public var profile: String
    public var seed: UInt64
    /// Monitor shards; each is an actor that owns a fixed subset of the devices.
    public var shards: Int
    /// Samples per batch on every hop.
    public var batchSize: Int
    /// Batches in flight per shard (source → monitor) and per shard towards the dispatcher.
    public var creditsPerShard: Int
    public var pace: Pace
    /// Source-side filters and noise, for every source kind.
    public var filters: LocationFilterSettings
    /// Encoded events the dispatcher buffers before it writes them to the sink.
    public var eventBufferBytes = 1 << 16
    /// The slice of the devices this process simulates (see ``Partition``); the whole run by default.
    public var partition = Partition.whole
    /// How devices choose regions from a shared catalog (regions without `devices`, or a generated catalog).
    public var selection = SelectionSettings()
    /// Whether to evaluate every catalog region exactly beside the monitors, for the report's `coverage`.
    public var coverage = false
    /// How many devices' tracks the monitors sample for the report's map (``TrackSampler``); 0 samples none, for a
    /// run whose report nobody reads (the sampler looks at every sample).
    public var sampledTracks = 200
    /// Whether the report carries what its page draws (``RunReport/recording``: the map with how often each region
    /// fired, the latency histogram); off for a run whose report nobody reads, which then neither counts the
    /// regions' events nor builds the map at its end (ranking a region file's regions by their events: about
    /// 10 ms for 200,000 regions, between the last event and the exit).
    public var recordsPage = true

    public init(
        source: Source, regions: [Region]? = nil, settings: MonitorSettings = .exact, profile: String = "exact",
        seed: UInt64 = 42, shards: Int = SimulationConfiguration.defaultShardCount, batchSize: Int = 1024,
        creditsPerShard: Int = 4, pace: Pace = .max, filters: LocationFilterSettings = .init()
    ) {
        self.filters = filters
        self.source = source
        self.regionCatalog = regions.map(RegionCatalog.init(regions:))
        self.settings = settings
        self.profile = profile
        self.seed = seed
        self.shards = shards
        self.batchSize = batchSize
        self.creditsPerShard = creditsPerShard
        self.pace = pace
    }

    /// One shard per active core.
    public static var defaultShardCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
