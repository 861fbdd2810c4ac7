import Synchronization

/// What a command built and no longer needs, kept until the process exits instead of being freed: the exit
/// reclaims the memory at once, where freeing it object by object (the regions, the devices' tables, the names)
/// took the last milliseconds of a run, after its last output was written, and unmapping a regions file and
/// freeing its decoder's tables took milliseconds of the kernel's beside the run (``BackgroundRelease``).
///
/// Only the `location-router` process turns it on (``enable()``, in `main.swift`), since it exits right after its
/// command; a command run in-process (the tests) releases what it built as usual.
public enum KeptUntilExit {
    /// `nil` until ``enable()``.
    private static let kept = Mutex<[any Sendable]?>(nil)

    /// Keeps from now on what ``keep(_:)`` is given.
    public static func enable() { kept.withLock { $0 = $0 ?? [] } }

    /// Whether ``keep(_:)`` keeps what it is given.
    public static var isEnabled: Bool { kept.withLock { $0 != nil } }

    /// Keeps `value` until the process exits, when enabled; else lets it go.
    public static func keep(_ value: any Sendable) {
        kept.withLock { $0?.append(value) }
    }
}
