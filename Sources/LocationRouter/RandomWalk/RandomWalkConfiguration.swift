import GeofenceKit

/// The shape of a seeded random walk: where devices start, how they move and which regions they monitor.
public struct RandomWalkConfiguration: Sendable, Equatable {
    public var devices: Int
    /// The centre of the area the devices start in and stay near.
    public var center: Coordinate
    /// Devices start uniformly within this distance of the centre (metres) and turn back when they leave it.
    public var areaRadius: Double
    /// Each device moves at a constant speed drawn from this range (m/s).
    public var speed: ClosedRange<Double>
    /// Seconds between two samples of a device.
    public var interval: Double
    /// Standard deviation of the heading change over one second, in degrees; scaled by √interval.
    public var headingNoise: Double
    /// The time of every device's first sample.
    public var start: Timestamp
    /// Simulated seconds after `start`; samples are taken at `start`, `start + interval`, … up to it.
    public var duration: Double
    /// The regions generated for each device.
    public var regions: GeneratedRegionsConfiguration
    /// A shared catalog generated over the area instead of regions per device (`regions.catalog`).
    public var catalog: GeneratedCatalogConfiguration? = nil
    /// Seeded stops (`source.stops`), so that devices visit places; `nil`: devices never stop.
    public var stops: RandomWalkStops?

    public init(
        devices: Int = 10_000, center: Coordinate = Coordinate(unchecked: 25.0330, 121.5654),
        areaRadius: Double = 10_000, speed: ClosedRange<Double> = 1...30, interval: Double = 1,
        headingNoise: Double = 20, start: Timestamp = Timestamp(microseconds: 1_795_248_000_000_000),
        duration: Double = 600, regions: GeneratedRegionsConfiguration = .init()
    ) {
        self.devices = devices
        self.center = center
        self.areaRadius = areaRadius
        self.speed = speed
        self.interval = interval
        self.headingNoise = headingNoise
        self.start = start
        self.duration = duration
        self.regions = regions
    }

    /// Samples per device: one at the start and one per whole interval up to the duration.
    public var samplesPerDevice: Int { Int((duration / interval).rounded(.down)) + 1 }
}

/// Circular regions generated near each device's start, so that its walk crosses them.
public struct GeneratedRegionsConfiguration: Sendable, Equatable {
    /// Regions per device; 0 when the regions come from a file instead.
    public var perDevice: Int
    public var radius: ClosedRange<Double>
    /// Region centres lie uniformly within this distance (metres) of the device's start.
    public var maxDistance: Double

    public init(perDevice: Int = 20, radius: ClosedRange<Double> = 100...2_000, maxDistance: Double = 3_000) {
        self.perDevice = perDevice
        self.radius = radius
        self.maxDistance = maxDistance
    }
}

/// When random-walk devices stand still: each device alternates moving and stopped periods of exponentially
/// distributed lengths, stopped `share` of the time on average with stops of `meanLength` seconds on average
/// (moving periods then average `meanLength × (1 − share) / share`). A stopped device keeps reporting its position.
public struct RandomWalkStops: Sendable, Equatable {
    /// The share of time stopped, 0…1.
    public var share: Double
    /// The mean length of a stop, in seconds.
    public var meanLength: Double

    public init(share: Double = 0.3, meanLength: Double = 900) {
        self.share = share
        self.meanLength = meanLength
    }
}
