import Foundation
import Synchronization

/// A `URLSession` inside ``HTTPSLibrary``: `POST`s bodies to one URL, at most `connections` at once.
final class HTTPSSession: Sendable {
    /// How a request ended.
    enum Answer: Equatable, Sendable {
        case answered(status: Int, retryAfter: String?)
        case failed(reason: String)
        case cancelled
        /// Its deadline passed before the answer was complete.
        case expired
    }

    private let library: HTTPSLibrary
    private let url: String
    private let contentType: String
    /// The library's session handle; nil once ended, after which requests end as ``Answer/cancelled``.
    private let handle: Mutex<UInt?>

    /// - Parameters:
    ///   - timeout: the session's wait between bytes (whole seconds; see `post`'s deadline for an exact one).
    ///   - refuseRedirects: a 3xx answer is final instead of followed (a redirected `POST` may become a `GET`).
    init(library: HTTPSLibrary, url: URL, contentType: String, timeout: Double, connections: Int, refuseRedirects: Bool) {
        self.library = library
        self.url = url.absoluteString
        self.contentType = contentType
        handle = Mutex(UInt(bitPattern: library.sessionStart(timeout, connections, refuseRedirects)))
    }

    /// `POST`s `body`; with a `deadline` > 0 the request ends as ``Answer/expired`` after that many seconds.
    /// Cancelling the calling task cancels the request, whenever it happens.
    func post(_ body: Data, deadline: Double) async -> Answer {
        let request = RequestSlot(library: library)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                let waiter = Unmanaged.passRetained(AnswerWaiter(continuation)).toOpaque()
                // Under the lock, so that the session is not ended while the request starts.
                let start = handle.withLock { session -> Start in
                    guard let session, let session = UnsafeMutableRawPointer(bitPattern: session) else { return .sessionEnded }
                    let exchange = body.withUnsafeBytes { bytes in
                        library.post(
                            session, url, contentType, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, deadline,
                            waiter, { context, status, text in
                                Unmanaged<AnswerWaiter>.fromOpaque(context!).takeRetainedValue().resume(status: status, text: text)
                            })
                    }
                    return exchange.map { .started(UInt(bitPattern: $0)) } ?? .notAURL
                }
                switch start {
                case .started(let exchange): request.start(UnsafeMutableRawPointer(bitPattern: exchange)!)
                case .notAURL: Unmanaged<AnswerWaiter>.fromOpaque(waiter).takeRetainedValue().resume(status: 0, text: "not a URL")
                case .sessionEnded: Unmanaged<AnswerWaiter>.fromOpaque(waiter).takeRetainedValue().resume(status: -1, text: nil)
                }
            }
        } onCancel: {
            request.cancel()
        }
    }

    private enum Start: Sendable {
        /// The library's handle of the request.
        case started(UInt)
        case notAURL
        case sessionEnded
    }

    /// Cancels the requests in flight (they end as ``Answer/cancelled``), refuses new ones, and ends the session.
    func cancelAll() { end(cancel: true) }

    /// Ends the session once the requests in flight have finished; new ones are refused.
    func invalidate() { end(cancel: false) }

    private func end(cancel: Bool) {
        let session = handle.withLock { handle -> UInt? in
            defer { handle = nil }
            return handle
        }
        if let session, let pointer = UnsafeMutableRawPointer(bitPattern: session) { library.sessionEnd(pointer, cancel) }
    }

    deinit { end(cancel: false) }
}

/// The continuation of one request, handed to the library as its context.
private final class AnswerWaiter {
    private let continuation: CheckedContinuation<HTTPSSession.Answer, Never>

    init(_ continuation: CheckedContinuation<HTTPSSession.Answer, Never>) { self.continuation = continuation }

    func resume(status: Int32, text: UnsafePointer<CChar>?) {
        let text = text.map { String(cString: $0) }
        switch status {
        case 1...: continuation.resume(returning: .answered(status: Int(status), retryAfter: text))
        case -1: continuation.resume(returning: .cancelled)
        case -2: continuation.resume(returning: .expired)
        default: continuation.resume(returning: .failed(reason: text ?? "failed"))
        }
    }
}

/// The library's handle of one request, cancellable from any thread, also before the request has started;
/// released once the request has ended or been cancelled.
private final class RequestSlot: Sendable {
    private let library: HTTPSLibrary
    private let state = Mutex<(exchange: UInt?, cancelled: Bool)>((nil, false))

    init(library: HTTPSLibrary) { self.library = library }

    func start(_ exchange: UnsafeMutableRawPointer) {
        let cancelled = state.withLock { state -> Bool in
            state.exchange = UInt(bitPattern: exchange)
            return state.cancelled
        }
        if cancelled { library.cancel(exchange) }
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let exchange = state.exchange, let pointer = UnsafeMutableRawPointer(bitPattern: exchange) { library.cancel(pointer) }
        }
    }

    deinit {
        if let exchange = state.withLock({ $0.exchange }), let pointer = UnsafeMutableRawPointer(bitPattern: exchange) {
            library.release(pointer)
        }
    }
}
