import Foundation
import GeofenceKit

/// Circular regions generated around each device's first position, so that its movement crosses them.
///
/// A function of the seed, the device and the position alone: any shard computes a device's regions without the
/// others. Region `k` of device `d` has identifier `d * perDevice + k` (named `device-d/rk`).
public struct GeneratedRegions: Sendable {
    public let configuration: GeneratedRegionsConfiguration
    public let seed: UInt64

    public init(configuration: GeneratedRegionsConfiguration, seed: UInt64) {
        self.configuration = configuration
        self.seed = seed
    }

    /// Appends the device's circles to `circles`, in order: what a monitor's registration fast path takes
    /// (``MonitorState/CircleLookup``), with no geometry compiled.
    public func circles(
        ofDevice device: Int32, around latitude: Double, _ longitude: Double, into circles: inout [MonitoredCircle]
    ) {
        let count = configuration.perDevice
        guard count > 0 else { return }
        var rng = SplitMix64(seed: seed, stream: UInt64(device), purpose: .generatedRegions)
        // Every centre is moved from the same position: the plane's trigonometry there is computed once.
        let scale = LocalScale(latitude: latitude)
        // Each circle's draws (``GeoMotion/discDraws(_:using:)``, then the radius) in order, then the centres in one
        // call (``GeoMotion/moves(from:_:scale:distances:bearings:count:latitudes:longitudes:stride:)``): the same
        // numbers as drawing and moving circle by circle.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count) { scratch in
            let distances = scratch.baseAddress!, bearings = distances + count
            // The circles are made on the stack as they are drawn, each at the device's position, and the moves write
            // their centres in place: one pass over them, then one copy to `circles` (appended one by one, each paid
            // the array's uniqueness and capacity checks: registering a million devices makes 20 million).
            withUnsafeTemporaryAllocation(of: MonitoredCircle.self, capacity: count) { made in
                let made = made.baseAddress!
                for k in 0..<count {
                    (distances[k], bearings[k]) = GeoMotion.discDraws(configuration.maxDistance, using: &rng)
                    // The nearest Float (within 0.06 mm at 2 km): a monitor's slot holds such a radius in 4 bytes.
                    let radius = Double(Float(rng.uniform(configuration.radius)))
                    (made + k).initialize(
                        to: MonitoredCircle(
                            id: device &* Int32(count) &+ Int32(k), latitude: latitude, longitude: longitude,
                            radius: radius))
                }
                GeoMotion.moves(
                    from: latitude, longitude, scale: scale, distances: distances, bearings: bearings, count: count,
                    latitudes: made.pointer(to: \.latitude)!, longitudes: made.pointer(to: \.longitude)!,
                    stride: MemoryLayout<MonitoredCircle>.stride / MemoryLayout<Double>.stride)
                circles.append(contentsOf: UnsafeBufferPointer(start: made, count: count))
                made.deinitialize(count: count)
            }
        }
    }

    /// The device's circles as regions (their geometry compiled).
    public func regions(ofDevice device: Int32, around latitude: Double, _ longitude: Double) -> [MonitoredRegion] {
        var circles: [MonitoredCircle] = []
        self.circles(ofDevice: device, around: latitude, longitude, into: &circles)
        return circles.map(MonitoredRegion.init)
    }
}

extension GeoMotion {
    /// A position uniformly distributed in the disc of `radius` metres around a position (on the plane of the
    /// position where that is accurate, along geodesics elsewhere: see ``GeoMotion/move(_:_:north:east:)``).
    /// - Parameter scale: the position's ``LocalScale``, when the caller has it.
    static func offset(
        _ latitude: Double, _ longitude: Double, withinDisc radius: Double, scale: LocalScale? = nil,
        using rng: inout SplitMix64
    ) -> (latitude: Double, longitude: Double) {
        guard let scale else {
            let (north, east) = discOffset(radius, using: &rng)
            return move(latitude, longitude, north: north, east: east, scale: nil)
        }
        // With the scale at hand, the move of generated regions' centres: the same draws and the same position as
        // the library's sine and cosine of the bearing give, which it calls only where their last bits could change
        // it (a random walk places each device's start so).
        var (distance, bearing) = discDraws(radius, using: &rng)
        var end = (latitude: 0.0, longitude: 0.0)
        moves(
            from: latitude, longitude, scale: scale, distances: &distance, bearings: &bearing, count: 1,
            latitudes: &end.latitude, longitudes: &end.longitude)
        return end
    }

    /// ``offset(_:_:withinDisc:scale:using:)`` from a start whose plane (`scale`) and geodesic terms (`start`) the
    /// caller computed once for many offsets (a generated catalog places a million centres around the walk's
    /// centre): the same draws, the same position.
    static func offset(
        from start: Geodesic.DirectStart, scale: LocalScale, withinDisc radius: Double, using rng: inout SplitMix64
    ) -> (latitude: Double, longitude: Double) {
        let (north, east) = discOffset(radius, using: &rng)
        return move(from: start, scale: scale, north: north, east: east)
    }

    /// A uniform offset in the disc of `radius` metres, north and east (also a played track's jitter).
    static func discOffset(_ radius: Double, using rng: inout SplitMix64) -> (north: Double, east: Double) {
        let (distance, bearing) = discDraws(radius, using: &rng)
        let direction = SineAndCosine.of(bearing)
        return (distance * direction.cos, distance * direction.sin)
    }

    /// The draws of a uniform offset in the disc of `radius` metres, in their order: a distance, then a bearing
    /// (radians, clockwise from north). ``GeneratedRegions/circles(ofDevice:around:_:into:)`` takes them for many
    /// offsets before turning the bearings into directions at once.
    static func discDraws(_ radius: Double, using rng: inout SplitMix64) -> (distance: Double, bearing: Double) {
        let distance = radius * rng.unit().squareRoot()
        return (distance, rng.unit() * 2 * .pi)
    }
}
