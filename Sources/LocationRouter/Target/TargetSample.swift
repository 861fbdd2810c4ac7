import Foundation
import GeofenceKit

/// A sample as it is sent to a service under test: one NDJSON line of `device`, `lat`, `lon`, `time` and
/// `accuracy` (when known).
public struct TargetSample: Sendable, Equatable {
    public var device: String
    public var latitude: Double
    public var longitude: Double
    public var time: Timestamp
    public var accuracy: Double?

    public init(device: String, latitude: Double, longitude: Double, time: Timestamp, accuracy: Double? = nil) {
        self.device = device
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.accuracy = accuracy
    }

    /// Appends the sample's NDJSON line to `output`.
    public func append(to output: inout [UInt8]) {
        output.append(contentsOf: #"{"device":"#.utf8)
        output.append(contentsOf: EventEncoder.jsonLiteral(device).utf8)
        output.append(contentsOf: #","lat":"#.utf8)
        output.append(contentsOf: latitude.description.utf8)
        output.append(contentsOf: #","lon":"#.utf8)
        output.append(contentsOf: longitude.description.utf8)
        output.append(contentsOf: #","time":""#.utf8)
        time.appendISO8601(to: &output)
        output.append(UInt8(ascii: "\""))
        if let accuracy {
            output.append(contentsOf: #","accuracy":"#.utf8)
            output.append(contentsOf: accuracy.description.utf8)
        }
        output.append(contentsOf: "}\n".utf8)
    }

    /// The samples a run's devices report, in the order the source produces them (each device's in time order),
    /// after the source's filters and noise: what a service under test is sent. Held in memory.
    public static func collect(_ configuration: SimulationConfiguration) throws -> [TargetSample] {
        var samples: [TargetSample] = []
        func take(_ batch: LocationBatch, names: DeviceNames) {
            for i in 0..<batch.count {
                let accuracy = batch.accuracies[i]
                samples.append(TargetSample(
                    device: names.name(of: batch.devices[i]), latitude: batch.latitudes[i], longitude: batch.longitudes[i],
                    time: Timestamp(microseconds: batch.times[i]), accuracy: accuracy.isNaN ? nil : Double(accuracy)))
            }
        }
        switch configuration.source {
        case .samples(let input):
            var filter = configuration.filters.isActive
                ? LocationFilter(settings: configuration.filters, seed: configuration.seed, stride: 1) : nil
            var indices: [String: Int32] = [:]
            var names: [String] = []
            try SampleFileWalk.walk(input) { sample in
                let device = indices[sample.device] ?? Int32(names.count)
                if indices[sample.device] == nil {
                    indices[sample.device] = device
                    names.append(sample.device)
                }
                var batch = LocationBatch()
                batch.append(
                    device: device, latitude: sample.coordinate.latitude, longitude: sample.coordinate.longitude,
                    time: sample.time, accuracy: sample.accuracy, through: &filter)
                if let accuracy = batch.accuracies.first, !batch.isEmpty {
                    samples.append(TargetSample(
                        device: sample.device, latitude: batch.latitudes[0], longitude: batch.longitudes[0], time: sample.time,
                        accuracy: accuracy.isNaN ? nil : Double(accuracy)))
                }
            }
        case .randomWalk, .playback:
            let wiring = Wiring(configuration: configuration)
            switch wiring.source {
            case .randomWalk(let plan):
                var lane = RandomWalkLane(plan: plan, first: 0, stride: 1, filter: configuration.filters)
                while !lane.isFinished {
                    var batch = LocationBatch(capacity: 4096)
                    _ = lane.fill(&batch, capacity: 4096)
                    take(batch, names: wiring.deviceNames)
                }
            case .playback(let plan):
                var lane = PlaybackLane(plan: plan, first: 0, stride: 1, filter: configuration.filters)
                while !lane.isFinished {
                    var batch = LocationBatch(capacity: 4096)
                    _ = lane.fill(&batch, capacity: 4096)
                    take(batch, names: wiring.deviceNames)
                }
            case .samples:
                break
            }
        }
        return samples
    }
}
