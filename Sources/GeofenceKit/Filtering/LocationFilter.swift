import Foundation

/// Applies ``LocationFilterSettings`` to one shard's devices: adds seeded noise, then decides which samples a
/// device delivers.
///
/// Noise comes first because a real device filters what it measures. The noise of device `d` is drawn from its
/// own generator (seed, `d`), so it is the same whatever the shard count. Distances for the filters use a local
/// plane: the thresholds are hundreds of metres, not centimetres.
public struct LocationFilter: Sendable {
    public let settings: LocationFilterSettings
    private let seed: UInt64
    private let stride: Int32
    /// Per device row: last delivered position and time (NaN / .min before the first), and the noise generator.
    private var lastLatitude: [Double] = []
    private var lastLongitude: [Double] = []
    private var lastTime: [Int64] = []
    private var noise: [SplitMix64] = []
    /// Per-axis standard deviation of the noise: 68 % of a 2-D normal lies within 1.5096 σ of its centre.
    private let sigma: Double

    public init(settings: LocationFilterSettings, seed: UInt64, stride: Int = 1) {
        self.settings = settings
        self.seed = seed
        self.stride = Int32(max(1, stride))
        sigma = (settings.noiseAccuracy ?? 0) / 1.5096
    }

    /// A sample after noise, and whether the device delivers it.
    public struct Outcome: Sendable {
        public var latitude: Double
        public var longitude: Double
        /// The horizontal accuracy to report: the noise's, else the input's.
        public var accuracy: Double?
        public var isDelivered: Bool
    }

    public mutating func apply(
        device: Int32, latitude: Double, longitude: Double, time: Timestamp, accuracy: Double?
    ) -> Outcome {
        let row = Int(device / stride)
        if row >= lastTime.count { grow(toInclude: row, residue: device % stride) }
        var outcome = Outcome(latitude: latitude, longitude: longitude, accuracy: accuracy, isDelivered: true)
        if let noiseAccuracy = settings.noiseAccuracy {
            let (north, east) = Self.normalPair(&noise[row])
            (outcome.latitude, outcome.longitude) = GeoMotion.move(
                latitude, longitude, north: north * sigma, east: east * sigma)
            outcome.accuracy = noiseAccuracy
        }
        if lastTime[row] != .min {
            // Guarded distances: exact wherever the plane could fall on the wrong side of the threshold.
            func moved(atLeast minimum: Double) -> Bool {
                GuardedDistance.distance(
                    latitude1: lastLatitude[row], longitude1: lastLongitude[row], latitude2: outcome.latitude,
                    longitude2: outcome.longitude, comparedWith: minimum) >= minimum
            }
            if let minimum = settings.distanceFilter, !moved(atLeast: minimum) { outcome.isDelivered = false }
            if let coarse = settings.significantChange,
                !moved(atLeast: coarse.minimumDistance)
                    || Double(time.microseconds - lastTime[row]) / 1e6 < coarse.minimumInterval
            {
                outcome.isDelivered = false
            }
        }
        if outcome.isDelivered {
            lastLatitude[row] = outcome.latitude
            lastLongitude[row] = outcome.longitude
            lastTime[row] = time.microseconds
        }
        return outcome
    }

    /// Adds rows up to `row`; this table's devices are `row * stride + residue`.
    private mutating func grow(toInclude row: Int, residue: Int32) {
        for newRow in lastTime.count...row {
            lastLatitude.append(.nan)
            lastLongitude.append(.nan)
            lastTime.append(.min)
            let device = UInt64(newRow) * UInt64(stride) + UInt64(residue)
            noise.append(SplitMix64(seed: seed, stream: device, purpose: .positionNoise))
        }
    }

    /// Two independent standard normal numbers (Box–Muller).
    private static func normalPair(_ rng: inout SplitMix64) -> (Double, Double) {
        let u = max(rng.unit(), 0x1p-53)
        let v = rng.unit()
        let radius = (-2 * log(u)).squareRoot()
        return (radius * cos(2 * .pi * v), radius * sin(2 * .pi * v))
    }
}
