import GeofenceKit
import Testing
@testable import LocationRouter

@Suite struct DeviceStatesTests {
    /// A shard of `stride` that has seen `devices` (each registering two circles around it).
    static func shard(stride: Int, devices: [Int32]) -> RegionMonitor.FinalStates {
        var state = MonitorState(settings: .exact, stride: stride) { device in
            [0, 1].map { k in
                MonitoredRegion(
                    id: device * 2 + k,
                    geometry: .circle(CircleGeometry(center: Coordinate(unchecked: 25, 121 + Double(k) * 1e-3), radius: 100)))
            }
        }
        var events: [GeofenceEvent] = []
        for (step, device) in devices.enumerated() {
            _ = state.evaluate(
                device: device, latitude: 25, longitude: 121 + Double(device) * 1e-4,
                time: Timestamp(microseconds: Int64(step) * 1_000_000), into: &events)
        }
        return RegionMonitor.FinalStates(state: state, coverage: nil, rows: state.seenRows)
    }

    @Test(arguments: [
        [[0, 3, 6], [], [2, 5]],
        [[], [1, 4], []],
        [[0], [1], [2]],
        [[], [], []],
    ] as [[[Int32]]])
    func theShardsStatesAreReadOneByOneInShardOrder(seen: [[Int32]]) {
        let shards = seen.map { Self.shard(stride: seen.count, devices: $0) }
        let states = DeviceStates(shards: shards)
        let exported = shards.flatMap { $0.state.exportState() }
        #expect(states.count == seen.joined().count)
        #expect((0..<states.count).map(states.device) == seen.flatMap { $0.sorted() })
        #expect((0..<states.count).map(states.state) == exported)
        #expect(exported.allSatisfy { $0.regions.count == 2 })
    }
}
