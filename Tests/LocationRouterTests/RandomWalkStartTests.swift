import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

/// A device's start (``RandomWalkPlan/start(ofDevice:)``) moves from the centre with bounded sines and cosines of its
/// bearing, calling the C library only where they could change the result: it must be the position the library's
/// `sin` and `cos` give, bit for bit, wherever the walk is.
@Suite struct RandomWalkStartTests {
    /// The start as the draws and the library's sine and cosine make it, move by move.
    static func libraryStart(plan: RandomWalkPlan, device: Int32) -> (latitude: Double, longitude: Double) {
        let configuration = plan.configuration
        var rng = SplitMix64(seed: plan.seed, stream: UInt64(device), purpose: .walkStart)
        let distance = configuration.areaRadius * rng.unit().squareRoot()
        let bearing = rng.unit() * 2 * .pi
        return GeoMotion.move(
            configuration.center.latitude, configuration.center.longitude, north: distance * cos(bearing),
            east: distance * sin(bearing), scale: LocalScale(latitude: configuration.center.latitude))
    }

    /// The default centre, the equator beside the antimeridian, the plane's latitude limit and past it, and areas
    /// wider than the 19 km the bounded move takes (the library's path for the farther starts).
    @Test(arguments: [
        (25.0330, 121.5654, 10_000.0), (0, 179.99, 10_000), (0, -180, 2_000), (79.9, 10, 10_000), (80.5, -20, 10_000),
        (-45, 170, 30_000), (37.7749, -122.4194, 100_000),
    ])
    func startsAreTheLibraryPathsPositionsBitForBit(latitude: Double, longitude: Double, areaRadius: Double) {
        let configuration = RandomWalkConfiguration(
            devices: 20_000, center: Coordinate(unchecked: latitude, longitude), areaRadius: areaRadius)
        for seed: UInt64 in [42, 7] {
            let plan = RandomWalkPlan(configuration: configuration, seed: seed)
            for device in Int32(0)..<Int32(20_000) {
                let start = plan.start(ofDevice: device)
                let expected = Self.libraryStart(plan: plan, device: device)
                #expect(start.latitude.bitPattern == expected.latitude.bitPattern, "device \(device) seed \(seed)")
                #expect(start.longitude.bitPattern == expected.longitude.bitPattern, "device \(device) seed \(seed)")
            }
        }
    }
}
