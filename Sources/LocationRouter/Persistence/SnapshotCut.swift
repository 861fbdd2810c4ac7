import GeofenceKit
import Synchronization

/// A consistent cut through the running pipeline, so that a periodic snapshot never runs ahead of the events file.
///
/// ```
/// snapshot task ──cut──▶ every shard's input ─▶ RegionMonitor: exports its state, passes the cut on ─┐
///                                                                                                   ▼
///      state file ◀── snapshot (states + events file size) ◀── NotificationDispatcher: once every shard's
///                                                               cut is in, writes what came before it,
///                                                               fsyncs the events file, then goes on
/// ```
/// A monitor's state at the cut covers exactly the samples it evaluated before it, and the dispatcher holds
/// back whatever a shard sends after its cut until every shard's cut has arrived. So the events file's first
/// `bytes` bytes hold exactly the events of the snapshot's states: a restart from the snapshot truncates the file
/// there and appends, and every transition is in the file once (see ``FileDescriptorSink/init(path:resumingAt:)``).
/// A shard whose input has ended sends its final state instead, which stands for it at every later cut.
public final class SnapshotCut: Sendable {
    /// One shard's part of a cut.
    struct ShardState: Sendable {
        var devices: [DeviceState]
        /// Whether the shard's input has ended (the state is final).
        var isFinal: Bool
    }

    /// What the dispatcher hands over when a cut is complete.
    public struct Snapshot: Sendable {
        public var devices: [DeviceState]
        /// Each device's last event `seq`.
        public var sequences: [(device: Int32, seq: UInt64)]
        /// The events file's durable size at the cut, when events go to a file.
        public var eventsBytes: Int64?
    }

    private let inFlight = Atomic<Bool>(false)

    public init() {}

    /// Starts a cut unless one is still under way; returns whether it started.
    func begin() -> Bool {
        inFlight.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// Marks the cut under way as done (saved, abandoned or failed).
    func end() {
        inFlight.store(false, ordering: .releasing)
    }

    /// Whether a cut is under way.
    var isUnderWay: Bool { inFlight.load(ordering: .acquiring) }
}
