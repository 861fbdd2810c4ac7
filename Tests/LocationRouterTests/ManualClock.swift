import Synchronization
@testable import LocationRouter

/// A ``RunClock`` that moves only when a test calls ``advance(by:)``, in the style of swift-async-algorithms'
/// test clock: sleepers whose deadline is reached are resumed in deadline order (ties in the order they went
/// to sleep), a cancelled sleeper is resumed at once with `CancellationError`, and a test can wait — without
/// polling — until the code under test has gone to sleep.
final class ManualClock: RunClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A test waiting until the clock's state satisfies `condition`.
    private struct Watcher {
        let id: UInt64
        let condition: @Sendable (State) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Duration.zero
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        /// Sleepers cancelled before they were entered.
        var cancelled: Set<UInt64> = []
        var watchers: [Watcher] = []
        /// Every deadline asked for, in the order asked (also those already reached).
        var requested: [Duration] = []

        /// The watchers whose condition now holds, removed; the caller resumes them after unlocking.
        mutating func satisfiedWatchers() -> [Watcher] {
            let satisfied = watchers.filter { $0.condition(self) }
            watchers.removeAll { watcher in satisfied.contains { $0.id == watcher.id } }
            return satisfied
        }
    }

    private let state = Mutex(State())

    var now: Duration { state.withLock { $0.now } }

    /// The deadlines of the sleepers waiting now, earliest first.
    var pendingDeadlines: [Duration] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

    /// Every deadline the code under test slept until, in the order it went to sleep.
    var requestedDeadlines: [Duration] { state.withLock { $0.requested } }

    func sleep(until deadline: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            state.requested.append(deadline)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case cancelled, due, waiting([Watcher]) }
                let outcome: Outcome = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .waiting(state.satisfiedWatchers())
                }
                switch outcome {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .due: continuation.resume()
                case .waiting(let watchers): for watcher in watchers { watcher.continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A sleeper cancelled after it was resumed leaves its id behind; it is never looked up again.
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    /// Moves the time forward by `duration` and resumes, in deadline order, every sleeper whose deadline is
    /// reached.
    func advance(by duration: Duration) {
        let (due, watchers) = state.withLock { state in
            state.now += duration
            let now = state.now
            let due = state.sleepers.enumerated()
                .filter { $0.element.deadline <= now }
                .sorted { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }
                .map(\.element)
            state.sleepers.removeAll { $0.deadline <= now }
            return (due, state.satisfiedWatchers())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for watcher in watchers { watcher.continuation.resume() }
    }

    /// Suspends until the deadlines of the waiting sleepers satisfy `condition` (checked whenever one goes to
    /// sleep or the clock moves); returns at once when they already do, or when the task is cancelled.
    func waitForSleepers(where condition: @escaping @Sendable (_ deadlines: [Duration]) -> Bool) async {
        await waitUntil { condition($0.sleepers.map(\.deadline)) }
    }

    private func waitUntil(_ condition: @escaping @Sendable (State) -> Bool) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.cancelled.remove(id) != nil || condition(state) { return true }
                    state.watchers.append(Watcher(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLock { state -> Watcher? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.watchers.remove(at: index)
            }
            watcher?.continuation.resume()
        }
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    /// Suspends until at least `count` sleepers wait.
    func waitForSleepers(count: Int = 1) async {
        await waitForSleepers { $0.count >= count }
    }

    /// Moves the time to `deadline` (if it is later) and resumes the sleepers due by then.
    func advance(to deadline: Duration) {
        let step = deadline - now
        if step > .zero { advance(by: step) }
    }

    /// Runs `body` while jumping the time to the earliest deadline whenever the code under test sleeps, as a real
    /// clock would pass while it waits but without the wait, and returns `body`'s result. Deadlines
    /// at or after `limit` are never reached this way (say, a linger or grace period a test wants to keep out).
    func advancingToEachDeadline<T: Sendable>(
        before limit: Duration = .seconds(86_400 * 365), _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                while !Task.isCancelled {
                    await self.waitUntil { $0.sleepers.contains { $0.deadline < limit } }
                    let earliest = self.state.withLock { $0.sleepers.map(\.deadline).filter { $0 < limit }.min() }
                    if !Task.isCancelled, let earliest { self.advance(to: earliest) }
                }
                return nil
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw CancellationError()
        }
    }
}
