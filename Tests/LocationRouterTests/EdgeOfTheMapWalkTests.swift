import Foundation
import GeofenceKit
import Testing

@testable import LocationRouter

/// Random walks centred near a pole or on the antimeridian work and stay within their area.
@Suite(.serialized) struct EdgeOfTheMapWalkTests {
    static func walk(center: Coordinate, areaRadius: Double, duration: Double) async -> [Int32: [(Double, Double)]] {
        let configuration = RandomWalkConfiguration(
            devices: 30, center: center, areaRadius: areaRadius, speed: 20...30, duration: duration)
        let plan = RandomWalkPlan(configuration: configuration, seed: 7)
        var lane = RandomWalkLane(plan: plan, first: 0, stride: 1, stepsPerVisit: 8)
        var byDevice: [Int32: [(Double, Double)]] = [:]
        while true {
            var batch = LocationBatch(capacity: 64)
            guard lane.fill(&batch, capacity: 64), !batch.isEmpty else { break }
            for i in 0..<batch.count {
                byDevice[batch.devices[i], default: []].append((batch.latitudes[i], batch.longitudes[i]))
            }
            await Task.yield()  // let the suites running beside this one have the shared threads too
        }
        return byDevice
    }

    @Test(arguments: [
        [89, 0, 5_000], [89.95, 45, 20_000], [0, 180, 5_000], [-60, -179.99, 20_000], [-89.999, 10, 1_000],
    ] as [[Double]])
    func aWalkStaysWithinItsAreaAndMoves(parameters: [Double]) async {
        let center = Coordinate(unchecked: parameters[0], parameters[1])
        let areaRadius = parameters[2]
        let walks = await Self.walk(center: center, areaRadius: areaRadius, duration: 1_200)
        #expect(walks.count == 30)
        var longitudes: Set<Bool> = []
        for (device, walk) in walks {
            #expect(walk.count == 1_201)
            var travelled = 0.0
            for (index, (latitude, longitude)) in walk.enumerated() {
                #expect(abs(latitude) <= 90 && abs(longitude) <= 180)
                let fromCenter = Geodesic.distance(
                    latitude1: center.latitude, longitude1: center.longitude, latitude2: latitude, longitude2: longitude)
                // Within the area, plus the step or two a device takes before it turns back (30 m each).
                #expect(fromCenter <= areaRadius * 1.005 + 70, "device \(device) at \(fromCenter) m")
                if index > 0 {
                    let step = Geodesic.distance(
                        latitude1: walk[index - 1].0, longitude1: walk[index - 1].1, latitude2: latitude,
                        longitude2: longitude)
                    #expect(step <= 30 * 1.01, "device \(device) stepped \(step) m")
                    travelled += step
                }
                longitudes.insert(longitude >= 0)
            }
            #expect(travelled >= 20 * 1_200 * 0.99)
            await Task.yield()
        }
        if abs(center.longitude) > 179 {
            #expect(longitudes.count == 2, "the walk crosses the antimeridian both ways")
        }
    }
}
