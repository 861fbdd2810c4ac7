/// Source-side filtering and degradation of location updates, as Core Location offers them to apps.
public struct LocationFilterSettings: Sendable, Equatable {
    /// Deliver a sample only after the device moved at least this many metres since the last delivered one
    /// (`CLLocationManager.distanceFilter`); `nil` delivers every sample.
    public var distanceFilter: Double?
    /// Coarse updates like `startMonitoringSignificantLocationChanges`: only after moving at least
    /// `minimumDistance` metres and at most one every `minimumInterval` seconds.
    public var significantChange: SignificantChange?
    /// Seeded position noise whose 68 % radius is this many metres, written into each sample's accuracy.
    public var noiseAccuracy: Double?

    public struct SignificantChange: Sendable, Equatable {
        public var minimumDistance: Double
        public var minimumInterval: Double

        public init(minimumDistance: Double = 500, minimumInterval: Double = 300) {
            self.minimumDistance = minimumDistance
            self.minimumInterval = minimumInterval
        }
    }

    public init(distanceFilter: Double? = nil, significantChange: SignificantChange? = nil, noiseAccuracy: Double? = nil) {
        self.distanceFilter = distanceFilter
        self.significantChange = significantChange
        self.noiseAccuracy = noiseAccuracy
    }

    /// Whether any filter or noise applies.
    public var isActive: Bool { distanceFilter != nil || significantChange != nil || noiseAccuracy != nil }
}
