import GeofenceKit
import Testing

@testable import LocationRouter

/// The devices a continued run carries over into its own snapshot: the saved ones whose name no device of the run
/// has, found through the index the restore looks devices up in.
@Suite struct RestoredDevicesTests {
    static func devices(_ names: [String]) -> RestoredDevices {
        RestoredDevices(
            .decoded(names.map { .init(name: $0, time: 0, latitude: 0, longitude: 0, regions: [], failed: []) }))
    }

    @Test func theSavedDevicesNoDeviceOfTheRunNamesAreCarriedInOrder() {
        let restored = Self.devices(["a", "b", "c", "d", "e"])
        let run = ["d", "x", "b"]
        #expect(restored.unseen(among: run.count) { run[$0] } == [0, 2, 4])
        #expect(restored.unseen(among: 0) { _ in "" } == [0, 1, 2, 3, 4])
        #expect(restored.positions[ExactName("c")] == 2)
        #expect(Self.devices([]).unseen(among: run.count) { run[$0] } == [])
    }

    /// A name saved more than once (a file put together by hand): every device of the name goes, or stays, together,
    /// and the restore looks up the last one.
    @Test func devicesThatShareANameAreSeenTogether() {
        let restored = Self.devices(["a", "b", "a", "c", "a", "b"])
        #expect(restored.positions[ExactName("a")] == 4)
        #expect(restored.positions[ExactName("b")] == 5)
        #expect(restored.unseen(among: 1) { _ in "a" } == [1, 3, 5])
        #expect(restored.unseen(among: 1) { _ in "b" } == [0, 2, 3, 4])
        #expect(restored.unseen(among: 1) { _ in "c" } == [0, 1, 2, 4, 5])
        #expect(restored.unseen(among: 2) { ["b", "c"][$0] } == [0, 2, 4])
    }
}
