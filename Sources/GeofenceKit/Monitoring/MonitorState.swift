/// The monitoring state of a set of devices: which regions each one monitors and whether it is inside each.
///
/// A pure state machine: ``evaluate(device:latitude:longitude:time:into:)`` takes one sample and appends the
/// events it causes. There are no clocks, actors or I/O inside, so a test drives it with hand-written samples.
///
/// Layout: devices are dense integers. A table serves the devices `first + k * stride` (one shard of the
/// run), so device `d` lives at row `d / stride`. Each device's regions occupy a contiguous run of slots,
/// registered when its first sample arrives; a slot's inside state and notify flags are one byte beside it.
public struct MonitorState: Sendable {
    /// The regions a device asks to monitor, in registration order.
    public typealias RegionLookup = @Sendable (_ device: Int32) -> [MonitoredRegion]

    public let settings: MonitorSettings
    private let regionsOf: RegionLookup
    private let stride: Int32

    // Per device row.
    private var slotStart: [Int32] = []
    private var slotCount: [Int32] = []
    private var lastTime: [Int64] = []

    // Per slot.
    private var geometry: [RegionGeometry] = []
    private var regionID: [Int32] = []
    private var flags: [UInt8] = []

    /// Samples evaluated, and samples rejected because they were older than the device's previous one.
    public private(set) var evaluatedCount = 0
    public private(set) var outOfOrderCount = 0
    /// Devices that have sent at least one sample.
    public private(set) var deviceCount = 0

    private static let notifyOnEntry: UInt8 = 1
    private static let notifyOnExit: UInt8 = 2
    private static let inside: UInt8 = 4
    private static let unseen: Int64 = .min

    /// - Parameters:
    ///   - settings: the platform rules to apply.
    ///   - stride: the number of shards; this table serves devices whose index modulo `stride` is fixed.
    ///   - regions: the regions a device registers on its first sample.
    public init(settings: MonitorSettings, stride: Int = 1, regions: @escaping RegionLookup) {
        precondition(stride >= 1, "stride must be at least 1")
        self.settings = settings
        self.stride = Int32(stride)
        self.regionsOf = regions
    }

    /// Slots in use over all devices (monitored regions).
    public var monitoredRegionCount: Int { geometry.count }

    /// Evaluates one sample and appends the events it causes to `events`.
    ///
    /// The first sample of a device registers its regions: those past the slot limit produce `failed` events
    /// and the rest take their state from this sample as ``MonitorSettings/initialTrigger`` says. Later samples
    /// produce `enter` on outside→inside and `exit` on inside→outside where the region asks for them; the
    /// boundary counts as inside.
    /// - Returns: `false` when the sample is older than the device's previous one: it is rejected and changes
    ///   nothing.
    public mutating func evaluate(
        device: Int32, latitude: Double, longitude: Double, time: Timestamp, into events: inout [GeofenceEvent]
    ) -> Bool {
        let row = Int(device / stride)
        if row >= lastTime.count { grow(toInclude: row) }
        let previous = lastTime[row]
        if previous == Self.unseen {
            lastTime[row] = time.microseconds
            register(device: device, row: row, latitude: latitude, longitude: longitude, time: time, into: &events)
            evaluatedCount += 1
            return true
        }
        guard time.microseconds >= previous else {
            outOfOrderCount += 1
            return false
        }
        lastTime[row] = time.microseconds
        evaluatedCount += 1

        let start = Int(slotStart[row])
        let end = start + Int(slotCount[row])
        for slot in start..<end {
            let isInside = geometry[slot].contains(latitude: latitude, longitude: longitude)
            let slotFlags = flags[slot]
            guard isInside != (slotFlags & Self.inside != 0) else { continue }
            flags[slot] = slotFlags ^ Self.inside
            if isInside ? slotFlags & Self.notifyOnEntry != 0 : slotFlags & Self.notifyOnExit != 0 {
                events.append(
                    GeofenceEvent(
                        device: device, region: regionID[slot], kind: isInside ? .enter : .exit, time: time,
                        latitude: latitude, longitude: longitude))
            }
        }
        return true
    }

    /// Whether `device` is inside the region in its `slot`-th slot, or `nil` when it has no such slot.
    public func isInside(device: Int32, slot: Int) -> Bool? {
        let row = Int(device / stride)
        guard row < lastTime.count, lastTime[row] != Self.unseen, slot >= 0, slot < Int(slotCount[row]) else {
            return nil
        }
        return flags[Int(slotStart[row]) + slot] & Self.inside != 0
    }

    private mutating func grow(toInclude row: Int) {
        let missing = row + 1 - lastTime.count
        slotStart.append(contentsOf: repeatElement(0, count: missing))
        slotCount.append(contentsOf: repeatElement(0, count: missing))
        lastTime.append(contentsOf: repeatElement(Self.unseen, count: missing))
    }

    private mutating func register(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Timestamp,
        into events: inout [GeofenceEvent]
    ) {
        deviceCount += 1
        let requested = regionsOf(device)
        let accepted = requested.prefix(max(0, settings.slotLimit))
        slotStart[row] = Int32(geometry.count)
        slotCount[row] = Int32(accepted.count)

        for region in accepted {
            let isInside = region.geometry.contains(latitude: latitude, longitude: longitude)
            geometry.append(region.geometry)
            regionID.append(region.id)
            flags.append(
                (region.notifyOnEntry ? Self.notifyOnEntry : 0) | (region.notifyOnExit ? Self.notifyOnExit : 0)
                    | (isInside ? Self.inside : 0))
            switch settings.initialTrigger {
            case .none:
                break
            case .state:
                events.append(
                    GeofenceEvent(
                        device: device, region: region.id, kind: .state, time: time, latitude: latitude,
                        longitude: longitude, inside: isInside))
            case .enter:
                if isInside && region.notifyOnEntry {
                    events.append(
                        GeofenceEvent(
                            device: device, region: region.id, kind: .enter, time: time, latitude: latitude,
                            longitude: longitude))
                }
            }
        }
        // Registrations past the limit fail; the regions registered before them keep working.
        for region in requested.dropFirst(accepted.count) {
            events.append(
                GeofenceEvent(
                    device: device, region: region.id, kind: .failed, time: time, latitude: latitude,
                    longitude: longitude, failure: .tooManyRegions, code: settings.tooManyRegionsCode))
        }
    }
}
