import GeofenceKit

/// How recorded traces (GPX files, a `route:`) turn into traffic for many devices.
public struct PlaybackConfiguration: Sendable, Equatable {
    public var devices: Int
    /// Metres per second along legs without usable times (untimed waypoints, routes and tracks).
    public var speed: Double
    /// Seconds between samples along sampled paths.
    public var interval: Double
    /// When offset 0 of every trace plays: traces are re-based to the run's start, whatever their recorded dates.
    public var start: Timestamp
    /// The `k`-th device playing a trace starts `k × stagger` seconds after `start`.
    public var stagger: Double
    /// Seeded extra start delay per device, uniform in [0, timeJitter) seconds.
    public var timeJitter: Double
    /// Seeded constant displacement per device, uniform in a disc of this many metres.
    public var positionJitter: Double
    /// Regions generated around each device's first position (when no region file is given).
    public var regions: GeneratedRegionsConfiguration

    public init(
        devices: Int = 1, speed: Double = 10, interval: Double = 1,
        start: Timestamp = Timestamp(microseconds: 1_795_248_000_000_000), stagger: Double = 1,
        timeJitter: Double = 0, positionJitter: Double = 0, regions: GeneratedRegionsConfiguration = .init()
    ) {
        self.devices = devices
        self.speed = speed
        self.interval = interval
        self.start = start
        self.stagger = stagger
        self.timeJitter = timeJitter
        self.positionJitter = positionJitter
        self.regions = regions
    }
}
