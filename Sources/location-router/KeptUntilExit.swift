import Synchronization

/// What a command built and no longer needs, kept until the process exits instead of being freed: the exit
/// reclaims the memory at once, where freeing it object by object (the regions, the devices' tables, the names)
/// took the last milliseconds of a run, after its last output was written.
///
/// Only the `location-router` process turns it on (``enable()``, in `main.swift`), since it exits right after its
/// command; a command run in-process (the tests) releases what it built as usual.
enum KeptUntilExit {
    /// `nil` until ``enable()``.
    private static let kept = Mutex<[any Sendable]?>(nil)

    /// Keeps from now on what ``keep(_:)`` is given.
    static func enable() { kept.withLock { $0 = $0 ?? [] } }

    /// Keeps `value` until the process exits, when enabled; else lets it go.
    static func keep(_ value: any Sendable) {
        kept.withLock { $0?.append(value) }
    }
}
