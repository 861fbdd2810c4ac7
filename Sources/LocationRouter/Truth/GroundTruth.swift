import Foundation
import GeofenceKit
import Synchronization

/// The exact truth of a run's input: every boundary crossing of every device, at the moment it happens
/// (`--ground-truth`, and the reference `--score` measures events against).
///
/// Each device moves along its path between consecutive samples as ``TruthTracker`` describes: the random walk's
/// straight steps, a played trace's own legs (through every waypoint, even those between two samples), and
/// straight segments between the samples of a stream. Source-side filters and noise are not applied: they change
/// what a device reports, not where it is.
public struct GroundTruth: Sendable {
    /// The crossings: `enter` and `exit` events, each device's in time order.
    public var events: [GeofenceEvent]
    public let deviceNames: DeviceNames
    public let regionNames: RegionNames

    /// Computes the truth of `configuration`'s input: of its partition's devices only, as the run simulates them
    /// (the partitions' truths together are the whole run's). A sample stream is read to its end from its
    /// descriptor (pass a descriptor of its own, such as a second one on a replay file).
    /// - Throws: ``InputReadError`` when the stream cannot be read.
    public static func compute(_ configuration: SimulationConfiguration) throws -> GroundTruth {
        let partition = configuration.partition
        switch configuration.source {
        case .samples(let input):
            return try streamTruth(
                input, regions: configuration.regionCatalog ?? RegionCatalog(regions: []), partition: partition)
        case .randomWalk, .playback:
            let wiring = Wiring(configuration: configuration)
            // Devices are independent: lanes of the partition's devices run on every core, as the source's lanes do.
            let parts = max(1, ProcessInfo.processInfo.activeProcessorCount)
            let results = Mutex([[GeofenceEvent]](repeating: [], count: parts))
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let events = laneTruth(
                    wiring, first: partition.firstDevice(ofShard: part, shards: parts),
                    stride: partition.deviceStride(shards: parts))
                results.withLock { $0[part] = events }
            }
            return GroundTruth(
                events: results.withLock { $0.flatMap { $0 } }, deviceNames: wiring.deviceNames, regionNames: wiring.regionNames)
        }
    }

    /// The truth of generated devices `first`, `first + stride`, …
    private static func laneTruth(_ wiring: Wiring, first: Int, stride: Int) -> [GeofenceEvent] {
        // Generated devices are numbered densely: one tracker per device, made at its first sample.
        var trackers: [TruthTracker?] = []
        var events: [GeofenceEvent] = []
        func visit(_ device: Int32, _ latitude: Double, _ longitude: Double, _ time: Timestamp) {
            let i = Int(device) / stride
            if i >= trackers.count { trackers += repeatElement(nil, count: i + 1 - trackers.count) }
            var tracker = trackers[i] ?? TruthTracker(device: device, regions: wiring.lookup(device))
            trackers[i] = nil  // moved out and back, so that its arrays are not copied
            let found = tracker.advance(latitude: latitude, longitude: longitude, time: time)
            trackers[i] = tracker
            if !found.isEmpty { events += found }
        }
        switch wiring.source {
        case .randomWalk(let plan):
            var lane = RandomWalkLane(plan: plan, first: first, stride: stride)
            while !lane.isFinished {
                var batch = LocationBatch(capacity: 4096)
                _ = lane.fill(&batch, capacity: 4096)
                for i in 0..<batch.count {
                    visit(batch.devices[i], batch.latitudes[i], batch.longitudes[i], Timestamp(microseconds: batch.times[i]))
                }
            }
        case .playback(let plan):
            for device in Swift.stride(from: first, to: plan.configuration.devices, by: stride).map(Int32.init) {
                for point in plan.path(ofDevice: device) { visit(device, point.latitude, point.longitude, point.time) }
                if Int(device) / stride < trackers.count { trackers[Int(device) / stride] = nil }
            }
        case .samples:
            break
        }
        return events
    }

    /// The truth of a sample stream's devices that `partition` owns (see ``SampleFileWalk``).
    private static func streamTruth(
        _ input: SampleInput, regions catalog: RegionCatalog, partition: Partition
    ) throws -> GroundTruth {
        let registry = DeviceRegistry()
        var indices: [String: Int32] = [:]
        var trackers: [TruthTracker] = []
        var events: [GeofenceEvent] = []
        var others: Set<String> = []
        try SampleFileWalk.walk(input) { sample in
            guard partition.isWhole || !others.contains(sample.device) else { return }
            let device: Int32
            if let known = indices[sample.device] {
                device = known
            } else if !partition.owns(deviceID: sample.device) {
                others.insert(sample.device)
                return
            } else {
                device = registry.append(sample.device)
                indices[sample.device] = device
                trackers.append(TruthTracker(device: device, regions: catalog.regions(forDevice: sample.device)))
            }
            events += trackers[Int(device)].advance(
                latitude: sample.coordinate.latitude, longitude: sample.coordinate.longitude, time: sample.time)
        }
        return GroundTruth(events: events, deviceNames: .registry(registry), regionNames: .listed(catalog.identifiers))
    }

    /// The events as NDJSON, in the format of the run's events.
    public var ndjson: [UInt8] {
        var encoder = EventEncoder(deviceNames: deviceNames, regionNames: regionNames)
        var output: [UInt8] = []
        for event in events { encoder.encode(event, into: &output) }
        return output
    }

    /// The events as the scorer takes them.
    public var scoredEvents: [ScoredEvent] {
        events.map {
            ScoredEvent(
                device: deviceNames.name(of: $0.device), region: regionNames.name(of: $0.region), kind: $0.kind,
                time: $0.time)
        }
    }
}
