import Foundation
import GeofenceKit

/// The deterministic parts of playback: which trace each device plays, when it starts and how it is displaced.
///
/// Devices are assigned traces round-robin (device `d` plays trace `d % traces`), so 10,000 devices from 10 files
/// play each file 1,000 times, staggered in time and, with jitter, displaced in space: varied traffic that the
/// same seed reproduces exactly.
public struct PlaybackPlan: Sendable {
    public let configuration: PlaybackConfiguration
    public let seed: UInt64
    public let timelines: [TraceTimeline]
    /// The time of the last sample of any device (µs): where the clock stops at the end, for every lane and
    /// every partition alike, so timers due after a device's last sample fire the same way in all of them.
    public private(set) var endTime: Int64 = .min

    public init(traces: [Trace], configuration: PlaybackConfiguration, seed: UInt64) {
        self.configuration = configuration
        self.seed = seed
        timelines = traces.map { TraceTimeline(trace: $0, speed: configuration.speed, interval: configuration.interval) }
        guard !timelines.isEmpty else { return }
        for device in 0..<configuration.devices {
            let device = Int32(device)
            let duration = Int64((timeline(ofDevice: device).duration * 1e6).rounded())
            endTime = max(endTime, placement(ofDevice: device).start.microseconds + duration)
        }
    }

    /// When device `d` starts and how far it is displaced (metres north, east).
    public func placement(ofDevice device: Int32) -> (start: Timestamp, north: Double, east: Double) {
        var rng = SplitMix64(seed: seed, stream: UInt64(device), purpose: .playbackJitter)
        let ordinal = Int(device) / max(1, timelines.count)
        var delay = Double(ordinal) * configuration.stagger
        if configuration.timeJitter > 0 { delay += rng.unit() * configuration.timeJitter }
        var offset = (north: 0.0, east: 0.0)
        if configuration.positionJitter > 0 { offset = GeoMotion.discOffset(configuration.positionJitter, using: &rng) }
        return (configuration.start.adding(seconds: delay), offset.north, offset.east)
    }

    public func timeline(ofDevice device: Int32) -> TraceTimeline {
        timelines[Int(device) % timelines.count]
    }

    public func player(ofDevice device: Int32) -> TracePlayer {
        let placement = placement(ofDevice: device)
        return TracePlayer(
            timeline: timeline(ofDevice: device), start: placement.start, interval: configuration.interval,
            offset: (placement.north, placement.east))
    }

    /// Regions generated around the device's first position.
    public func regions(ofDevice device: Int32) -> [MonitoredRegion] {
        var player = player(ofDevice: device)
        guard let first = player.next() else { return [] }
        return GeneratedRegions(configuration: configuration.regions, seed: seed)
            .regions(ofDevice: device, around: first.latitude, first.longitude)
    }

    /// Appends the same circles to `circles` (``MonitorState/CircleLookup``).
    public func circles(ofDevice device: Int32, into circles: inout [MonitoredCircle]) {
        var player = player(ofDevice: device)
        guard let first = player.next() else { return }
        GeneratedRegions(configuration: configuration.regions, seed: seed)
            .circles(ofDevice: device, around: first.latitude, first.longitude, into: &circles)
    }
}
