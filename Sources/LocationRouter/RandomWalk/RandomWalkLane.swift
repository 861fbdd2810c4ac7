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
    private var latitude: [Double] = []
    private var longitude: [Double] = []
    private var heading: [Double] = []
    private var stepLength: [Double] = []
    private var rng: [SplitMix64] = []
    /// With stops: each device's stop schedule (empty otherwise).
    private var stops: [StopSchedule] = []
    /// The first step of the current block, the device being walked through it, and its next step.
    private var blockStart = 0
    private var cursor = 0
    private var step = 0
    private let stepsPerVisit: Int
    private let steps: Int
    private let headingNoise: Double
    private let areaRadius: Double
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
        // Uniform noise with the configured standard deviation: √3·σ·√dt bounds a uniform of variance σ²·dt.
        headingNoise = configuration.headingNoise * .pi / 180 * (3 * configuration.interval).squareRoot()
        areaRadius = configuration.areaRadius
        for device in devices {
            let start = plan.start(ofDevice: device)
            latitude.append(start.latitude)
            longitude.append(start.longitude)
            heading.append(start.heading)
            stepLength.append(start.speed * configuration.interval)
            rng.append(plan.walkGenerator(ofDevice: device))
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
        let configuration = plan.configuration
        let center = configuration.center
        while !isFinished && batch.count < capacity {
            if limit != .max && pacingTime.microseconds > limit { break }
            let blockEnd = min(blockStart + stepsPerVisit, steps)
            while cursor < devices.count && batch.count < capacity {
                if limit != .max && pacingTime.microseconds > limit { break }
                let i = cursor
                while step < blockEnd && batch.count < capacity {
                    if step > 0 && (stops.isEmpty || !stops[i].isStopped(atStep: step)) { advance(i, towards: center) }
                    let time = configuration.start.adding(seconds: Double(step) * configuration.interval)
                    if !batch.append(
                        device: devices[i], latitude: latitude[i], longitude: longitude[i], time: time, through: &filter)
                    {
                        filteredCount += 1
                    }
                    step += 1
                }
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
        // Every later sample belongs to the current block or a later one; at the end, time stops at the last step.
        let lastStep = max(0, min(blockStart, steps - 1))
        batch.watermark = configuration.start.adding(seconds: Double(lastStep) * configuration.interval).microseconds
        return !isFinished || batch.count > 0
    }

    /// Moves device `i` by one step: turn by seeded noise, and head back towards the centre when outside the area.
    @inline(__always)
    private mutating func advance(_ i: Int, towards center: Coordinate) {
        guard plan.isPlanar else { return advanceOnSphere(i, towards: center) }
        var h = heading[i] + headingNoise * (2 * rng[i].unit() - 1)
        let north = (latitude[i] - center.latitude) * plan.scale.metresPerDegreeLatitude
        let east = (longitude[i] - center.longitude) * plan.scale.metresPerDegreeLongitude
        if north * north + east * east > areaRadius * areaRadius {
            h = atan2(-east, -north)
        }
        heading[i] = h
        let step = stepLength[i]
        (latitude[i], longitude[i]) = plan.scale.move(latitude[i], longitude[i], north: step * cos(h), east: step * sin(h))
    }

    /// ``advance(_:towards:)`` for walks near a pole or the antimeridian: great circles on the sphere, the shorter
    /// way round, over a pole when the walk goes there.
    private mutating func advanceOnSphere(_ i: Int, towards center: Coordinate) {
        var h = heading[i] + headingNoise * (2 * rng[i].unit() - 1)
        let back = SphericalWalkStep.towards(
            centerLatitude: center.latitude, centerLongitude: center.longitude, from: latitude[i], longitude[i])
        if back.distance > areaRadius { h = back.bearing }
        let moved = SphericalWalkStep.step(latitude[i], longitude[i], heading: h, distance: stepLength[i])
        (latitude[i], longitude[i], heading[i]) = moved
    }
}
