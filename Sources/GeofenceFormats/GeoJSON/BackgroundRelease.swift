import Foundation
import Synchronization

/// Large values released on a thread of their own, so that the thread done with them goes on at once.
///
/// Freeing memory takes time too: the kernel unmaps a memory-mapped regions file page by page, and the
/// megabytes of tables its decoding built likewise, which a loader would otherwise spend before the run can
/// start (about a tenth of the decoding of a 35 MB file). Nothing is released early: the value goes when the
/// other thread drops it, and the caller must not hold it any longer.
public enum BackgroundRelease {
    /// Below this many bytes (of a file, or of what was built from one) a value is not worth a thread.
    public static let minimumBytes = 1 << 20

    /// Hands `value` over to a new thread that releases it; or keeps it, when the process keeps what it no longer
    /// needs until it exits (``KeptUntilExit``), which costs neither a thread nor the release.
    public static func release<Value: Sendable>(_ value: consuming Value) {
        if KeptUntilExit.isEnabled {
            KeptUntilExit.keep(consume value)
            return
        }
        // Moved, not copied, into the box: a copy left here would be released here, perhaps last. The value is
        // taken out of the box on the new thread, so it is released there, whichever thread lets go of the box
        // last.
        let box = Box(consume value)
        Thread { _ = box.value.withLock { $0.take() } }.start()
    }

    /// Hands the value of `variable` over to a new thread that releases it, leaving `empty` in its place.
    public static func release<Value: Sendable>(_ variable: inout Value, leaving empty: Value) {
        var taken = empty
        swap(&taken, &variable)
        release(consume taken)
    }

    private final class Box<Value: Sendable>: Sendable {
        let value: Mutex<Value?>
        init(_ value: consuming Value) { self.value = Mutex(consume value) }
    }
}
