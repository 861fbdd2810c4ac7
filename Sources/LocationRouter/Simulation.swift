import GeofenceKit

/// A whole run: source → monitors → dispatcher, wired with batches, shards and credits, drained to the end.
///
/// ```
/// source ──LocationBatch──▶ RegionMonitor ×N ──EventBatch──▶ NotificationDispatcher ──▶ sink
///        (BoundedChannel per shard)          (one BoundedChannel)
/// ```
/// Every hop is a ``BoundedChannel``: a full one holds its senders back, so a slow sink slows the source. Every
/// stage, the periodic snapshot timer, the back-pressure sampler and the sink's own background work
/// (``EventSink/run()``: a webhook's delivery workers) are child tasks of the run, and end with it.
public struct Simulation: Sendable {
    public var configuration: SimulationConfiguration
    /// Where events go; `nil` counts them without writing them anywhere.
    public var sink: (any EventSink)?
    /// Counters to watch while the run goes on.
    public var progress: PipelineProgress?
    /// Ends the run early, draining every stage (Ctrl-C).
    public var stop: StopSignal?
    /// Where the devices' monitored state is saved at the end (and every `snapshotInterval` seconds), and
    /// restored from at the start when the file exists.
    public var statePath: String?
    /// Seconds of ``clock`` between snapshots during the run; 0: only at the end.
    public var snapshotInterval: Double = 0
    /// What pacing and the snapshot interval wait on: the real clock unless a test drives the run's time.
    public var clock: any RunClock = .continuous
    /// The snapshot to continue from, when the caller has read (and checked) it already; otherwise it is read
    /// from `statePath` when that file exists.
    public var restoredSnapshot: StateSnapshot?
    /// The events file's resolved path, recorded in snapshots so that a restart can continue it.
    public var eventsPath: String?
    /// Called when a periodic snapshot cannot be saved (the run goes on; the failure is counted in the report).
    public var onSnapshotFailure: (@Sendable (any Error) -> Void)?
    /// Given, at the end of the run, what the run built and no longer needs (the monitors and their device tables,
    /// the dispatcher and its name tables, the region catalog) instead of releasing it there. A process that exits
    /// right after the run keeps it and lets the exit reclaim the memory at once, rather than free it object by
    /// object while the user waits (about 15 ms for 10,000 devices × 20 regions). `nil`: released as usual.
    public var keepsWhatRemains: (@Sendable (any Sendable) -> Void)?

    public init(configuration: SimulationConfiguration, sink: (any EventSink)?, progress: PipelineProgress? = nil) {
        self.configuration = configuration
        self.sink = sink
        self.progress = progress
    }

    private enum StageResult: Sendable {
        case source(SourceSummary)
        case monitors([ShardSummary])
        case dispatcher(DispatchSummary)
        case waits(RunRecorder)
    }

    /// Runs until the source is exhausted and every stage has drained.
    /// - Throws: the first error of any stage (an invalid input line under `failOnBadInput`, a sink error);
    ///   the other stages are cancelled.
    public func run() async throws -> RunReport {
        try await run(keepingEvents: false).report
    }

    /// Runs like ``run()`` and also returns every event (for comparing profiles on the same input).
    public func runKeepingEvents() async throws -> (report: RunReport, events: [GeofenceEvent]) {
        try await run(keepingEvents: true)
    }

    private func run(keepingEvents: Bool) async throws -> (report: RunReport, events: [GeofenceEvent]) {
        let started = MonotonicClock.now()
        let configuration = configuration
        let shardCount = max(1, configuration.shards)
        let wiring = Wiring(configuration: configuration)
        progress?.expect(wiring.simulatedSpan)
        let translation = StateTranslation(deviceNames: wiring.deviceNames, regionNames: wiring.regionNames)
        var restored: MonitorState.StateLookup?
        var restoredCoverage: (@Sendable (Int32) -> CoverageState?)?
        var restoredSequence: (@Sendable (Int32) -> UInt64?)?
        let snapshot = try restoredSnapshot ?? statePath.flatMap({ try StateFile.read($0) })
        let restoredDevices: RestoredDevices
        if let snapshot {
            try Self.check(
                snapshot, profile: configuration.profile, seed: configuration.seed, partition: configuration.partition,
                path: statePath ?? "state")
            restoredDevices = RestoredDevices(snapshot.saved)
            (restored, restoredCoverage, restoredSequence) = translation.lookups(restoredDevices)
        } else {
            restoredDevices = .none
        }
        let snapshotsDuringRun = statePath != nil && snapshotInterval > 0

        let inputs = (0..<shardCount).map { _ in
            BoundedChannel<LocationBatch>(capacity: max(1, configuration.creditsPerShard))
        }
        let events = BoundedChannel<EventBatch>(capacity: max(1, configuration.creditsPerShard) * shardCount)
        let channels = inputs.map(\.statistics) + [events.statistics]

        let source = LocationSource(
            kind: wiring.source, outputs: inputs,
            batchSize: configuration.batchSize, pace: configuration.pace, filter: configuration.filters,
            seed: configuration.seed, stop: stop, partition: configuration.partition, clock: clock)
        // Generated devices keep their indices in a partition; a stream's devices are numbered as they come.
        let partition = wiring.knownDevices == nil ? Partition.whole : configuration.partition
        let deviceStride = partition.deviceStride(shards: shardCount)
        // A walk's devices register at their starts unless filters move or drop their first samples, or a restart
        // registers them where they were.
        let registersAtStarts = restored == nil && !configuration.filters.isActive
        let circles = (registersAtStarts ? wiring.circlesAtStarts : nil) ?? wiring.circles
        let monitors = (0..<shardCount).map { shard in
            var state =
                if let circles {
                    MonitorState(
                        settings: configuration.settings, stride: deviceStride, seed: configuration.seed,
                        positionedCircles: circles, restored: restored)
                } else {
                    MonitorState(
                        settings: configuration.settings, stride: deviceStride, seed: configuration.seed,
                        regions: wiring.lookup, restored: restored)
                }
            state.deliveryKey = wiring.deliveryKey
            if let devices = wiring.knownDevices {
                // Generated devices are known in advance: allocate each table once, at its final size.
                let first = partition.firstDevice(ofShard: shard, shards: shardCount)
                let own = devices > first ? (devices - first + deviceStride - 1) / deviceStride : 0
                // Under `nearest` a device's block also holds its catalog regions (vacant slots included).
                let chosen = configuration.selection.strategy == .nearest ? wiring.catalog?.index.count ?? 0 : 0
                state.reserveCapacity(
                    devices: own, regions: own * min(wiring.perDevice + chosen, configuration.settings.slotLimit))
            }
            if let catalog = wiring.catalog, configuration.selection.strategy == .nearest {
                state.selectRegions(from: catalog, settings: configuration.selection)
                if case .randomWalk(let plan) = wiring.source, restored == nil {
                    let first = partition.firstDevice(ofShard: shard, shards: shardCount)
                    state.prepareFirstChoices(at: plan.starts(first: first, stride: deviceStride))
                }
            }
            let coverage = configuration.coverage
                ? wiring.catalog.map {
                    CoverageTracker(catalog: $0, isCatalogRegion: wiring.isCatalogRegion, restoring: restoredCoverage)
                } : nil
            return RegionMonitor(
                state: state, progress: progress, shard: shard, sendsFinalState: snapshotsDuringRun,
                recorder: RunRecorder(
                    started: started, seed: configuration.seed, sampledDevices: configuration.sampledTracks),
                coverage: coverage)
        }
        // Snapshots are written (and `fsync`ed) on a thread of their own, not on the cooperative pool.
        let snapshotWriter = statePath.map { _ in WriterThread(name: "location-router snapshot writer") }
        let save: @Sendable (DeviceStates, [(device: Int32, seq: UInt64)], Int64?) async throws -> Void = {
            [statePath, eventsPath, configuration, restoredDevices]
            devices, sequences, bytes in
            guard let statePath, let snapshotWriter else { return }
            let events = eventsPath.flatMap { path in bytes.map { StateSnapshot.EventsFile(path: path, bytes: $0) } }
            // Named and encoded device by device on the writer's thread, as the file is written.
            try await snapshotWriter.perform {
                Result {
                    try translation.writeSnapshot(
                        of: configuration, devices: devices, sequences: sequences, events: events,
                        carrying: restoredDevices, to: statePath)
                }
            }.get()
        }
        let cut = snapshotsDuringRun ? SnapshotCut() : nil
        let dispatcher = NotificationDispatcher(
            sink: sink,
            encoder: EventEncoder(
                deviceNames: wiring.deviceNames, regionNames: wiring.regionNames, restoredSequence: restoredSequence),
            flushThreshold: configuration.eventBufferBytes, keepsEvents: keepingEvents, shardCount: shardCount, cut: cut,
            saveSnapshot: { try await save(DeviceStates($0.devices), $0.sequences, $0.eventsBytes) },
            snapshotFailed: onSnapshotFailure,
            recorder: RunRecorder(started: started, seed: configuration.seed, sampledDevices: 0),
            regionFireSlots: configuration.recordsPage ? wiring.regionFireSlots : 0)
        var waits = RunRecorder(started: started, seed: 0, sampledDevices: 0)
        var sourceSummary = SourceSummary()
        var shardSummaries: [ShardSummary] = []
        var dispatchSummary = DispatchSummary()
        try await Self.running(sink) {
            try await withThrowingTaskGroup(of: StageResult?.self) { group in
                group.addTask {
                    .dispatcher(try await dispatcher.run(events, checkpointsAtEnd: statePath != nil))
                }
                if let cut {
                    // Periodic snapshots: a cut through every shard's input, completed by the dispatcher (SnapshotCut).
                    group.addTask { [snapshotInterval, clock] in
                        while !Task.isCancelled {
                            _ = await clock.sleep(seconds: snapshotInterval)
                            guard !Task.isCancelled, cut.begin() else { continue }
                            var cutBatch = LocationBatch()
                            cutBatch.isSnapshotCut = true
                            for input in inputs { input.sendWithoutCredit(cutBatch) }
                        }
                        return nil
                    }
                }
                group.addTask { .waits(await Self.sampleWaits(of: channels, started: started)) }
                group.addTask {
                    defer { events.finish() }
                    return .monitors(
                        try await withThrowingTaskGroup(of: ShardSummary.self) { shards in
                            for (shard, monitor) in monitors.enumerated() {
                                shards.addTask {
                                    try await monitor.run(inputs[shard], output: events)
                                }
                            }
                            return try await shards.reduce(into: []) { $0.append($1) }
                        })
                }
                group.addTask { .source(try await source.run()) }
                var stagesLeft = 3
                for try await result in group {
                    switch result {
                    case .source(let summary)?: sourceSummary = summary
                    case .monitors(let summaries)?: shardSummaries = summaries
                    case .dispatcher(let summary)?: dispatchSummary = summary
                    case .waits(let recorder)?:
                        waits = recorder
                        continue
                    case nil: continue
                    }
                    stagesLeft -= 1
                    // The pipeline has drained: the snapshot timer and the sampler go too, before the final snapshot.
                    if stagesLeft == 0 { group.cancelAll() }
                }
            }
        }

        // After a sink failure the states are ahead of the events file: the last snapshot that agrees stays.
        if statePath != nil && dispatchSummary.sinkFailure == nil {
            // With periodic snapshots the shards already sent their final states; otherwise each device's is read
            // from its shard's monitor as it is written.
            let devices: DeviceStates
            if let sent = dispatchSummary.finalStates {
                devices = DeviceStates(sent)
            } else {
                var shards: [RegionMonitor.FinalStates] = []
                for monitor in monitors { shards.append(await monitor.finalStates()) }
                devices = DeviceStates(shards: shards)
            }
            try await save(devices, dispatchSummary.sequences, dispatchSummary.eventsBytes)
        }
        let devices = shardSummaries.reduce(0) { $0 + $1.devices }
        var report = RunReport(
            source: sourceSummary, shards: shardSummaries, dispatch: dispatchSummary, channels: channels,
            regions: wiring.regionCount(devices: devices), wallSeconds: Double(MonotonicClock.now() - started) / 1e9,
            configuration: configuration, interrupted: stop?.isRequested ?? false)
        report.sinkFailure = dispatchSummary.sinkFailure.map { "\($0)" }
        report.addCatalogFigures(shards: shardSummaries, configuration: configuration)
        if statePath != nil { report.snapshots = (dispatchSummary.snapshotsSaved, dispatchSummary.snapshotFailures) }
        if configuration.recordsPage {
            report.recording = Self.recording(
                shards: shardSummaries, dispatch: dispatchSummary, waits: waits, wiring: wiring,
                configuration: configuration, devices: devices)
        }
        keepsWhatRemains?((monitors, dispatcher, wiring, source, inputs, events))
        return (report, dispatchSummary.events)
    }

    /// Refuses a snapshot that a run of `profile`, `seed` and `partition` cannot continue: written by another
    /// profile, or (where the snapshot says) by a run of another seed or partition, whose devices' states and walks
    /// are not this run's.
    public static func check(
        _ snapshot: StateSnapshot, profile: String, seed: UInt64, partition: Partition, path: String
    ) throws {
        func refuse(_ field: String, _ message: String) -> InputError {
            InputError(message, file: path, line: 1, field: field)
        }
        guard snapshot.profile == profile else {
            throw refuse("profile", "the snapshot was written by profile \(snapshot.profile), this run uses \(profile)")
        }
        if let saved = snapshot.seed, saved != seed {
            throw refuse(
                "seed",
                "the snapshot was written by a run of seed \(saved), this run's seed is \(seed) (--seed \(saved) "
                    + "continues it)")
        }
        if let saved = snapshot.partition, saved != partition {
            throw refuse(
                "partition",
                "the snapshot is of partition \(saved), this run is partition \(partition) (each partition keeps a "
                    + "snapshot of its own)")
        }
    }

    /// Refuses a snapshot written by another profile: the check of earlier versions, kept for code written against
    /// it. It takes the snapshot's own seed and partition as the run's; ``check(_:profile:seed:partition:path:)``
    /// also refuses a snapshot of another seed or partition.
    public static func check(_ snapshot: StateSnapshot, profile: String, path: String) throws {
        try check(
            snapshot, profile: profile, seed: snapshot.seed ?? 0, partition: snapshot.partition ?? .whole, path: path)
    }
}
