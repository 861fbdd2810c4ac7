import Synchronization

/// A request to end a run early without losing anything: the source stops producing, and every stage drains
/// what it already holds, so the events and the report are complete for the samples that were read.
///
/// Ctrl-C and SIGTERM trigger it in the CLI; an embedding program calls ``request()``.
public final class StopSignal: Sendable {
    private struct State {
        var requested = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Asks the run to stop; the first request runs the registered handlers, later ones do nothing.
    public func request() {
        let handlers: [@Sendable () -> Void] = state.withLock { state in
            guard !state.requested else { return [] }
            state.requested = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Runs `handler` when a stop is requested (at once if it already was).
    func onRequest(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { state in
            if state.requested { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}
