import Foundation
import Synchronization

/// A thread of its own for blocking output calls (`write`, `fsync`, an atomic file replace), as the stdin reader
/// has one for `read` (``DescriptorChunks``): a task hands its work over with ``perform(_:)`` and resumes when
/// the work has returned, so no thread of the cooperative pool ever blocks in the kernel.
///
/// Work runs one piece at a time, in the order handed over. Each caller waits for its own work, so at most one
/// piece per waiting task is queued: memory stays bounded by the callers' own buffers. The thread ends when
/// the owner is released (or ``finish()`` is called) and the queued work is done.
final class WriterThread: Sendable {
    private let queue: WorkQueue

    init(name: String) {
        let queue = WorkQueue()
        self.queue = queue
        let thread = Thread {
            // Its name, for debuggers and profilers.
            Thread.current.name = name
            while let work = queue.next() { work() }
        }
        thread.start()
    }

    deinit { queue.finish() }

    /// Runs `work` on the thread and returns its result once it has returned; the calling task is suspended
    /// meanwhile, not blocked. Cancelling the task does not stop work that was handed over. After ``finish()``,
    /// `work` runs on the calling thread.
    func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let job: @Sendable () -> Void = { continuation.resume(returning: work()) }
            if !queue.push(job) { job() }
        }
    }

    /// The thread ends once the queued work is done.
    func finish() { queue.finish() }
}

/// The work handed to a ``WriterThread``: a locked list and a semaphore counting its entries (and the finish).
private final class WorkQueue: Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var finished = false
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    /// - Returns: `false` after ``finish()``: the work is not queued.
    func push(_ work: @escaping @Sendable () -> Void) -> Bool {
        let queued = state.withLock { state in
            guard !state.finished else { return false }
            state.work.append(work)
            return true
        }
        if queued { ready.signal() }
        return queued
    }

    /// The next piece of work, blocking until there is one; `nil` once finished and empty.
    func next() -> (@Sendable () -> Void)? {
        while true {
            ready.wait()
            let (work, finished): ((@Sendable () -> Void)?, Bool) = state.withLock { state in
                state.work.isEmpty ? (nil, state.finished) : (state.work.removeFirst(), false)
            }
            if let work { return work }
            if finished { return nil }
        }
    }

    func finish() {
        let first = state.withLock { state in
            defer { state.finished = true }
            return !state.finished
        }
        if first { ready.signal() }
    }
}
