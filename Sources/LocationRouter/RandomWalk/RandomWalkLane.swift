import Foundation
import GeofenceKit

/// The walk of one shard's devices: fills ``LocationBatch``es block of time steps by block of time steps.
///
/// Devices in the lane are `first, first + stride, …`. A block is `stepsPerVisit` consecutive time steps: the lane
/// walks the first device through the whole block, then the next, and so on, so a device's samples are in time
/// order and arrive back to back — the monitor then finds the device's regions still in cache, which matters more
/// than any formula. With one step per visit (for paced runs) every batch holds one instant. A device's walk
/// depends only on its own generator, so the samples are the same whatever the block size or shard count.
public struct RandomWalkLane: Sendable {
    private let plan: RandomWalkPlan
    private let devices: [Int32]
    /// Each device's position, heading and generator, one record per device (``RandomWalker``).
    private var walkers: [RandomWalker] = []
    /// With stops: each device's stop schedule (empty otherwise).
    private var stops: [StopSchedule] = []
    /// Every step's sample time (microseconds), computed once.
    private let stepTimes: [Int64]
    /// The first step of the current block, the device being walked through it, and its next step.
    private var blockStart = 0
    private var cursor = 0
    private var step = 0
    private let stepsPerVisit: Int
    private let steps: Int
    private let area: RandomWalker.Area
    private var filter: LocationFilter?
    /// Samples the source filters suppressed so far.
    public private(set) var filteredCount = 0

    public init(
        plan: RandomWalkPlan, first: Int, stride: Int, filter: LocationFilterSettings = .init(), stepsPerVisit: Int = 1
    ) {
        self.stepsPerVisit = max(1, stepsPerVisit)
        self.filter = filter.isActive ? LocationFilter(settings: filter, seed: plan.seed, stride: stride) : nil
        self.plan = plan
        let configuration = plan.configuration
        devices = Swift.stride(from: first, to: configuration.devices, by: stride).map { Int32($0) }
        steps = configuration.samplesPerDevice
        stepTimes = (0..<steps).map {
            configuration.start.adding(seconds: Double($0) * configuration.interval).microseconds
        }
        area = RandomWalker.Area(plan: plan)
        walkers.reserveCapacity(devices.count)
        // Half a million devices' walkers are 32 MB, all written just below.
        PrefaultedMemory.populate(capacityOf: &walkers)
        for device in devices {
            walkers.append(RandomWalker(plan: plan, device: device))
            if let schedule = plan.stopSchedule(ofDevice: device) { stops.append(schedule) }
        }
    }

    /// The simulated time of the earliest sample still to come (the block's first step).
    public var nextTime: Timestamp {
        plan.configuration.start.adding(seconds: Double(blockStart) * plan.configuration.interval)
    }

    public var isFinished: Bool { blockStart >= steps || devices.isEmpty }

    /// The block's start plus the share of its devices already walked, as a share of the block's duration.
    public var pacingTime: Timestamp {
        let configuration = plan.configuration
        let progress = devices.isEmpty ? 0 : Double(cursor) / Double(devices.count)
        let step = Double(blockStart) + progress * Double(stepsPerVisit)
        return configuration.start.adding(seconds: step * configuration.interval)
    }

    /// Appends up to `capacity - batch.count` samples to `batch` (fewer when filters suppress some), none whose
    /// ``pacingTime`` is past `limit`; returns `false` once the walk is over.
    public mutating func fill(_ batch: inout LocationBatch, capacity: Int, upTo limit: Int64 = .max) -> Bool {
        if filter != nil {
            // Taken out of the lane while it walks, so that the samples' way in can mutate it.
            var active = filter.take()
            var filtered = 0
            walk(upTo: limit, isFull: { batch.count >= capacity }) { device, latitude, longitude, time in
                let appended = batch.append(
                    device: device, latitude: latitude, longitude: longitude, time: Timestamp(microseconds: time),
                    through: &active)
                if !appended { filtered += 1 }
            }
            filter = active
            filteredCount += filtered
        } else {
            // Without filters every sample goes in: written straight into the batch's storage.
            batch.appendSamples(upTo: capacity - batch.count) { samples in
                walk(upTo: limit, isFull: { samples.isFull }) { samples.append($0, $1, $2, $3) }
            }
        }
        // Every later sample belongs to the current block or a later one; at the end, time stops at the last step.
        batch.watermark = stepTimes[max(0, min(blockStart, steps - 1))]
        return !isFinished || batch.count > 0
    }

    /// Walks on from where the lane stopped, handing every sample to `emit`, until `isFull()`, the end, or a sample
    /// whose ``pacingTime`` is past `limit`.
    @inline(__always)
    private mutating func walk(
        upTo limit: Int64, isFull: () -> Bool,
        emit: (_ device: Int32, _ latitude: Double, _ longitude: Double, _ time: Int64) -> Void
    ) {
        let area = area
        while !isFinished && !isFull() {
            if limit != .max && pacingTime.microseconds > limit { break }
            let blockEnd = min(blockStart + stepsPerVisit, steps)
            while cursor < devices.count && !isFull() {
                if limit != .max && pacingTime.microseconds > limit { break }
                // The device's record stays in a local while it walks through the block.
                let i = cursor
                var walker = walkers[i]
                while step < blockEnd && !isFull() {
                    if step > 0 && (stops.isEmpty || !stops[i].isStopped(atStep: step)) { walker.advance(in: area) }
                    emit(devices[i], walker.latitude, walker.longitude, stepTimes[step])
                    step += 1
                }
                walkers[i] = walker
                if step == blockEnd {
                    cursor += 1
                    step = blockStart
                }
            }
            if cursor == devices.count {
                cursor = 0
                blockStart = blockEnd
                step = blockStart
            }
        }
    }
}
