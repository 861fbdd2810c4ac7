/// What a slot limit costs: the catalog evaluated exactly for every device, with no limit, beside the monitor —
/// every transition the device makes across any catalog region, and whether the monitor (with its slot limit
/// and its choice of regions) reported it.
///
/// The unlimited evaluation follows the `exact` rules: a device's first sample sets its state silently, then
/// `enter` on outside→inside and `exit` on inside→outside (boundary inside), for the kinds the region notifies.
/// Only regions near the device can change state, so each sample costs one containment query of the
/// ``CatalogIndex``, not a scan of the catalog.
///
/// A reported event (same device, region and kind) catches the latest unlimited transition at or before its time
/// that no event caught yet; `late` when it came later than the transition (hysteresis, a region chosen while
/// the device was inside, Android's initial trigger). Transitions never caught are missed.
///
/// A run continued from a snapshot continues each device where the snapshot left it (``CoverageState``): its first
/// sample is compared with the regions it was inside, and an event can still catch a transition of the run before
/// that no event caught. Such a catch counts here as a transition caught late (the run before, which ended first,
/// counted the transition as missed).
public struct CoverageTracker: Sendable {
    let catalog: SharedCatalog
    let isCatalogRegion: @Sendable (Int32) -> Bool
    /// A device's state in the snapshot this run continues, if any.
    let restored: (@Sendable (Int32) -> CoverageState?)?
    /// The catalog regions each device is inside (ascending), for the devices inside any: each set in an array of
    /// its own size. (Storing the reused query buffer instead made every later query copy it into a new buffer a
    /// little larger than the last — `removeAll(keepingCapacity:)` of a shared array — and every device kept one
    /// of those ever larger buffers: 1.2 GB after 800,000 transitions of 100,000 devices.)
    private var inside: [Int32: [Int32]] = [:]
    /// Devices whose first sample came (a bit per device number).
    private var seen: [UInt64] = []
    /// Transitions no event caught yet, per device, oldest first.
    private var open: [Int32: [CoverageState.Transition]] = [:]
    /// Transitions of the run before (restored) that no event caught yet, per device, oldest first.
    private var carried: [Int32: [CoverageState.Transition]] = [:]
    private var found: [Int32] = []
    private var stack: [(level: Int32, box: Int32)] = []

    public private(set) var transitions = 0
    public private(set) var caught = 0
    public private(set) var late = 0
    /// Events for catalog regions that caught no transition (for example Android's initial `enter` for a region
    /// the device stood in from its first sample).
    public private(set) var unmatched = 0

    /// - Parameters:
    ///   - isCatalogRegion: whether an event's region belongs to the catalog (other regions are ignored).
    ///   - restored: a device's state in the snapshot the run continues (asked once, at its first sample).
    public init(
        catalog: SharedCatalog, isCatalogRegion: @escaping @Sendable (Int32) -> Bool,
        restoring restored: (@Sendable (Int32) -> CoverageState?)? = nil
    ) {
        self.catalog = catalog
        self.isCatalogRegion = isCatalogRegion
        self.restored = restored
    }

    /// Evaluates a sample against every catalog region; call it before the monitor evaluates the same sample.
    public mutating func observe(device: Int32, latitude: Double, longitude: Double, time: Timestamp) {
        found.removeAll(keepingCapacity: true)
        catalog.index.regionsContaining(latitude: latitude, longitude: longitude, into: &found, stack: &stack)
        let word = Int(device) >> 6, bit = UInt64(1) << UInt64(device & 63)
        if word >= seen.count { seen.append(contentsOf: repeatElement(0, count: word + 1 - seen.count)) }
        if seen[word] & bit == 0 {
            seen[word] |= bit
            guard let saved = restored?(device) else {
                if !found.isEmpty { inside[device] = ownCopy(found) }
                return
            }
            // Continued from the snapshot: this sample is compared with where the last run left the device.
            if !saved.inside.isEmpty { inside[device] = saved.inside.sorted() }
            if !saved.open.isEmpty { carried[device] = saved.open }
        }
        let previous = inside[device] ?? []
        if previous == found { return }
        var i = 0, j = 0
        while i < previous.count || j < found.count {
            if j == found.count || (i < previous.count && previous[i] < found[j]) {
                transition(device: device, region: previous[i], kind: .exit, time: time)
                i += 1
            } else if i == previous.count || found[j] < previous[i] {
                transition(device: device, region: found[j], kind: .enter, time: time)
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        inside[device] = found.isEmpty ? nil : ownCopy(found)
    }

    /// A copy in a buffer of its own size, so that `found` stays this tracker's alone and is reused without a copy
    /// (`Array(found)` and `Array(found[...])` would share its buffer).
    private func ownCopy(_ regions: [Int32]) -> [Int32] {
        [Int32](unsafeUninitializedCapacity: regions.count) { buffer, count in
            for (i, region) in regions.enumerated() { buffer[i] = region }
            count = regions.count
        }
    }

    /// The device's state to save in a snapshot: the catalog regions it is inside and its transitions no event caught
    /// yet (as restored, for a device this run has not seen; `nil` for one no run has).
    public func state(of device: Int32) -> CoverageState? {
        let word = Int(device) >> 6
        guard word < seen.count, seen[word] & (UInt64(1) << UInt64(device & 63)) != 0 else { return restored?(device) }
        return CoverageState(inside: inside[device] ?? [], open: (carried[device] ?? []) + (open[device] ?? []))
    }

    /// Elements the per-device sets hold room for (for tests: it stays near the number of regions devices are in).
    var insideCapacity: Int { inside.values.reduce(0) { $0 + $1.capacity } + found.capacity }

    private mutating func transition(device: Int32, region: Int32, kind: EventKind, time: Timestamp) {
        let definition = catalog.region(region)
        guard kind == .enter ? definition.notifyOnEntry : definition.notifyOnExit else { return }
        transitions += 1
        open[device, default: []].append(CoverageState.Transition(region: region, kind: kind, time: time.microseconds))
    }

    /// Takes the monitor's events into account: each `enter` or `exit` of a catalog region catches a transition.
    public mutating func record(_ events: [GeofenceEvent]) {
        for event in events where (event.kind == .enter || event.kind == .exit) && isCatalogRegion(event.region) {
            let time = event.time.microseconds
            let caughtHere = { (transition: CoverageState.Transition) in
                transition.region == event.region && transition.kind == event.kind && transition.time <= time
            }
            // This run's transitions are all later than the run before's: the latest is among them, if any is.
            if let index = open[event.device]?.lastIndex(where: caughtHere) {
                let transition = open[event.device]!.remove(at: index)
                caught += 1
                if time > transition.time { late += 1 }
            } else if let index = carried[event.device]?.lastIndex(where: caughtHere) {
                let transition = carried[event.device]!.remove(at: index)
                transitions += 1
                caught += 1
                if time > transition.time { late += 1 }
            } else {
                unmatched += 1
            }
        }
    }

    /// The counts so far.
    public var summary: CoverageSummary {
        CoverageSummary(transitions: transitions, caught: caught, late: late, unmatched: unmatched)
    }
}

/// What ``CoverageTracker`` remembers of one device between runs (``DeviceState/coverage``).
public struct CoverageState: Sendable, Equatable {
    /// A transition of the unlimited evaluation that no event caught yet.
    public struct Transition: Sendable, Equatable {
        public var region: Int32
        /// `enter` or `exit`.
        public var kind: EventKind
        /// Microseconds since the epoch.
        public var time: Int64

        public init(region: Int32, kind: EventKind, time: Int64) {
            self.region = region
            self.kind = kind
            self.time = time
        }
    }

    /// The catalog regions the device is inside.
    public var inside: [Int32]
    /// Oldest first.
    public var open: [Transition]

    public init(inside: [Int32], open: [Transition]) {
        self.inside = inside
        self.open = open
    }
}

/// The report's `coverage` object: transitions of the unlimited evaluation, those the monitor reported too
/// (`late` among them when it reported them later), and those it never reported.
public struct CoverageSummary: Sendable, Equatable {
    public var transitions: Int
    public var caught: Int
    public var late: Int
    public var unmatched: Int

    public init(transitions: Int = 0, caught: Int = 0, late: Int = 0, unmatched: Int = 0) {
        self.transitions = transitions
        self.caught = caught
        self.late = late
        self.unmatched = unmatched
    }

    public var missed: Int { transitions - caught }
    /// caught / transitions; 1 when there was no transition.
    public var ratio: Double { transitions == 0 ? 1 : Double(caught) / Double(transitions) }

    public static func + (a: CoverageSummary, b: CoverageSummary) -> CoverageSummary {
        CoverageSummary(
            transitions: a.transitions + b.transitions, caught: a.caught + b.caught, late: a.late + b.late,
            unmatched: a.unmatched + b.unmatched)
    }
}
