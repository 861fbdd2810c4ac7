import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

@Suite struct RandomWalkTests {
    static let configuration = RandomWalkConfiguration(devices: 40, duration: 30)

    /// Every sample of a walk split over `shards` lanes, by device.
    static func samples(seed: UInt64, shards: Int, stepsPerVisit: Int = 1) -> [Int32: [(Double, Double, Int64)]] {
        let plan = RandomWalkPlan(configuration: configuration, seed: seed)
        var byDevice: [Int32: [(Double, Double, Int64)]] = [:]
        for shard in 0..<shards {
            var lane = RandomWalkLane(plan: plan, first: shard, stride: shards, stepsPerVisit: stepsPerVisit)
            while true {
                var batch = LocationBatch(capacity: 7)
                guard lane.fill(&batch, capacity: 7), !batch.isEmpty else { break }
                for i in 0..<batch.count {
                    byDevice[batch.devices[i], default: []].append((batch.latitudes[i], batch.longitudes[i], batch.times[i]))
                }
            }
        }
        return byDevice
    }

    @Test(arguments: [1, 4, 16, 50])
    func theSameSeedGivesTheSameWalkWhateverTheShardCountAndBlockSize(stepsPerVisit: Int) {
        let one = Self.samples(seed: 42, shards: 1)
        let three = Self.samples(seed: 42, shards: 3, stepsPerVisit: stepsPerVisit)
        #expect(one.count == 40)
        for (device, walk) in one {
            let other = three[device] ?? []
            #expect(walk.count == other.count)
            #expect(zip(walk, other).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 })
        }
    }

    @Test func anotherSeedGivesAnotherWalk() {
        let a = Self.samples(seed: 42, shards: 1)[0] ?? []
        let b = Self.samples(seed: 43, shards: 1)[0] ?? []
        #expect(a.first?.0 != b.first?.0)
    }

    @Test func eachDeviceSamplesOncePerIntervalFromStartToDuration() {
        let walk = Self.samples(seed: 1, shards: 2)[5] ?? []
        #expect(walk.count == 31)
        let start = Self.configuration.start.microseconds
        #expect(walk.enumerated().allSatisfy { $1.2 == start + Int64($0) * 1_000_000 })
    }

    @Test func devicesMoveAtTheirSpeedAndStayNearTheArea() {
        let plan = RandomWalkPlan(configuration: Self.configuration, seed: 9)
        for (device, walk) in Self.samples(seed: 9, shards: 1) {
            let speed = plan.start(ofDevice: device).speed
            for (a, b) in zip(walk, walk.dropFirst()) {
                let step = Geodesic.distance(latitude1: a.0, longitude1: a.1, latitude2: b.0, longitude2: b.1)
                #expect(abs(step - speed) < 0.01 * speed + 0.05)
            }
            for point in walk {
                let fromCenter = Geodesic.distance(
                    latitude1: 25.033, longitude1: 121.5654, latitude2: point.0, longitude2: point.1)
                #expect(fromCenter < 10_000 + 31 * 30)
            }
        }
    }

    /// Inside the area a device turns by uniform noise of the configured standard deviation (20° per second),
    /// never more than √3 of it; measured between its successive steps on the plane.
    @Test func devicesTurnByTheConfiguredHeadingNoise() {
        let configuration = RandomWalkConfiguration(devices: 200, duration: 100)
        let plan = RandomWalkPlan(configuration: configuration, seed: 11)
        var lane = RandomWalkLane(plan: plan, first: 0, stride: 1, stepsPerVisit: 200)
        var walks: [Int32: [(north: Double, east: Double)]] = [:]
        while !lane.isFinished {
            var batch = LocationBatch(capacity: 1024)
            _ = lane.fill(&batch, capacity: 1024)
            for i in 0..<batch.count {
                let north = (batch.latitudes[i] - configuration.center.latitude) * plan.scale.metresPerDegreeLatitude
                let east = (batch.longitudes[i] - configuration.center.longitude) * plan.scale.metresPerDegreeLongitude
                walks[batch.devices[i], default: []].append((north, east))
            }
        }
        var turns: [Double] = []
        for walk in walks.values {
            for k in 2..<walk.count {
                let (a, b, c) = (walk[k - 2], walk[k - 1], walk[k])
                // Outside the area the device heads back to the centre instead.
                guard (b.north * b.north + b.east * b.east).squareRoot() < configuration.areaRadius - 1 else { continue }
                let first = (north: b.north - a.north, east: b.east - a.east)
                let second = (north: c.north - b.north, east: c.east - b.east)
                let cross = first.north * second.east - first.east * second.north
                turns.append(atan2(cross, first.north * second.north + first.east * second.east))
            }
        }
        let sigma = 20 * Double.pi / 180
        #expect(turns.count > 15_000)
        #expect(turns.allSatisfy { abs($0) <= 3.squareRoot() * sigma * 1.000_001 })
        let mean = turns.reduce(0, +) / Double(turns.count)
        let deviation = (turns.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(turns.count)).squareRoot()
        #expect(abs(mean) < 0.02)
        #expect(abs(deviation - sigma) < 0.03 * sigma, "σ \(deviation * 180 / .pi)°")
    }

    /// Noise wider than π/4 a step turns through the C library's sine and cosine: steps keep the device's speed.
    @Test func aWideHeadingNoiseKeepsEveryStepAtTheDevicesSpeed() {
        var configuration = RandomWalkConfiguration(devices: 20, duration: 60)
        configuration.headingNoise = 300
        let plan = RandomWalkPlan(configuration: configuration, seed: 5)
        var lane = RandomWalkLane(plan: plan, first: 0, stride: 1, stepsPerVisit: 60)
        var last: [Int32: (latitude: Double, longitude: Double)] = [:]
        var steps = 0
        while !lane.isFinished {
            var batch = LocationBatch(capacity: 256)
            _ = lane.fill(&batch, capacity: 256)
            for i in 0..<batch.count {
                let device = batch.devices[i]
                if let from = last[device] {
                    let step = Geodesic.distance(
                        latitude1: from.latitude, longitude1: from.longitude, latitude2: batch.latitudes[i],
                        longitude2: batch.longitudes[i])
                    let speed = plan.start(ofDevice: device).speed
                    #expect(abs(step - speed) < 0.01 * speed + 0.05)
                    steps += 1
                }
                last[device] = (batch.latitudes[i], batch.longitudes[i])
            }
        }
        #expect(steps == 20 * 60)
    }

    @Test func generatedRegionsLieNearTheDevicesStartWithRadiiInRange() {
        let plan = RandomWalkPlan(configuration: Self.configuration, seed: 3)
        for device: Int32 in [0, 17, 39] {
            let start = plan.start(ofDevice: device)
            let regions = plan.regions(ofDevice: device)
            #expect(regions.count == 20)
            #expect(regions.map(\.id) == (0..<20).map { device * 20 + Int32($0) })
            for region in regions {
                guard case .circle(let circle) = region.geometry else {
                    Issue.record("generated regions are circles")
                    continue
                }
                #expect((100...2_000).contains(circle.radius))
                let distance = Geodesic.distance(
                    latitude1: start.latitude, longitude1: start.longitude, latitude2: circle.center.latitude,
                    longitude2: circle.center.longitude)
                #expect(distance <= 3_000 * 1.01)
            }
            // Regions are a function of the seed and device alone.
            #expect(plan.regions(ofDevice: device).map(\.id) == regions.map(\.id))
        }
    }

    /// The generator draws a device's circles together (its bearings' sines and cosines in one call): the same
    /// centres and radii, bit for bit, as drawing and moving them one by one, near the poles and the antimeridian too.
    @Test(arguments: [(48.85, 2.35), (-33.9, 151.2), (79.9, 179.99), (-89.5, -179.9)])
    func generatedCirclesAreThoseOfOneDrawAfterAnother(latitude: Double, longitude: Double) {
        let configuration = GeneratedRegionsConfiguration()
        let generator = GeneratedRegions(configuration: configuration, seed: 7)
        for device: Int32 in [0, 1, 12_345] {
            var circles: [MonitoredCircle] = []
            generator.circles(ofDevice: device, around: latitude, longitude, into: &circles)
            var rng = SplitMix64(seed: 7, stream: UInt64(device), purpose: .generatedRegions)
            let scale = LocalScale(latitude: latitude)
            let expected = (0..<configuration.perDevice).map { k in
                let centre = GeoMotion.offset(
                    latitude, longitude, withinDisc: configuration.maxDistance, scale: scale, using: &rng)
                let radius = Double(Float(rng.uniform(configuration.radius)))
                return (device * 20 + Int32(k), centre.latitude.bitPattern, centre.longitude.bitPattern, radius)
            }
            #expect(circles.count == expected.count)
            for (circle, want) in zip(circles, expected) {
                #expect(circle.id == want.0)
                #expect(circle.latitude.bitPattern == want.1 && circle.longitude.bitPattern == want.2)
                #expect(circle.radius == want.3)
            }
        }
    }
}
