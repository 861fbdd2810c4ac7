import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `POST` through a `URLSession`, cancellable from any thread (also before its data task exists) and ended
/// at its deadline: the session's own timeouts restart with every byte received, so a trickled answer would
/// otherwise outlast them.
final class HTTPSExchange: Sendable {
    /// How the exchange ended, as the C entry points report it (see ``HTTPSCompletion``).
    enum End {
        case answered(status: Int, retryAfter: String?)
        case failed(reason: String)
        case cancelled
        case expired
    }

    private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
    private let deadlinePassed = Atomic<Bool>(false)

    /// Starts the request; `finish` is called exactly once, on a thread of the session.
    init(session: URLSession, request: URLRequest, deadline: Double, finish: @escaping @Sendable (End) -> Void) {
        // The task keeps the exchange until it ends, and the exchange the task: the cycle ends with the task.
        let task = session.dataTask(with: request) { [self] _, response, error in
            state.withLock { $0.task = nil }
            finish(Self.end(response: response, error: error, expired: deadlinePassed.load(ordering: .acquiring)))
        }
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
        if deadline > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + min(deadline, 86_400)) { [weak self] in self?.expire() }
        }
    }

    /// Cancels the request unless it has already ended; it ends as ``End/cancelled``.
    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// The deadline has passed: cancels the request, which ends as ``End/expired``.
    private func expire() {
        deadlinePassed.store(true, ordering: .releasing)
        cancel()
    }

    private static func end(response: URLResponse?, error: (any Error)?, expired: Bool) -> End {
        if let error {
            if let urlError = error as? URLError, urlError.code == .cancelled { return expired ? .expired : .cancelled }
            // Connection refused or reset, DNS, TLS, timeout: any of these may pass, so the caller retries.
            return .failed(reason: error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else { return .failed(reason: "not an HTTP response") }
        return .answered(status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }
}
