import Dispatch
import Synchronization
import Testing

@testable import GeofenceFormats

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value handed to ``BackgroundRelease`` is released, and not on the thread that handed it over.
@Suite struct BackgroundReleaseTests {
    /// Whether a ``Tracked`` was released on the thread that made it, and a signal when it was.
    private final class Release: Sendable {
        let onMaker = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    /// Reports its release to `release`.
    private final class Tracked: @unchecked Sendable {
        let release: Release
        /// The thread that made it (a `pthread_t` is not `Sendable`; it is only compared).
        let maker = pthread_self()
        init(_ release: Release) { self.release = release }
        deinit {
            let onMaker = pthread_equal(maker, pthread_self()) != 0
            release.onMaker.withLock { $0 = onMaker }
            release.done.signal()
        }
    }

    @Test func releasesTheValueOnAnotherThread() {
        let release = Release()
        var value = [Tracked(release)]
        BackgroundRelease.release(&value, leaving: [])
        #expect(value.isEmpty)
        // Generous: the machine may be loaded; the test asserts that it happens, not how soon.
        #expect(release.done.wait(timeout: .now() + 600) == .success)
        #expect(release.onMaker.withLock { $0 } == false)
    }
}
