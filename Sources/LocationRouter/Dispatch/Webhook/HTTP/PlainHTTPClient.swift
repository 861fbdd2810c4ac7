import Foundation
import Synchronization

/// `POST`s to an `http://` URL over a socket of its own, instead of `URLSession`, whose FoundationNetworking
/// implementation ends the process with a fatal error on some malformed answers, lets a trickled body outlive
/// its timeout, and buffers whole bodies however large.
///
/// - One request per connection (`Connection: close`), so no connection state outlives a request.
/// - One deadline, `timeout` seconds from the start of the exchange, covers connecting, sending, and reading
///   the head and the body. Resolving a host name counts against it but cannot be interrupted (the system
///   resolver has its own timeout); an IP address, or a name in the hosts file, resolves at once.
/// - The body of the answer is read to its end or ``bodyLimit`` bytes, whichever comes first, and discarded.
/// - Each exchange blocks a thread of its own, never one of Swift's cooperative pool; the caller's task
///   suspends on a continuation. Cancelling that task, or ``cancelAll()``, wakes the thread at once, and the
///   task never waits more than ``ExchangeCompletion/cancellationGrace`` for it after a cancellation.
final class PlainHTTPClient: Sendable {
    /// Bytes of an answer's body read at most.
    static let bodyLimit = 64 * 1024

    private struct Registry {
        var next: UInt64 = 0
        var inFlight: [UInt64: (pipe: CancellationPipe, completion: ExchangeCompletion)] = [:]
        var stopped = false
    }

    let url: URL
    let timeout: Double
    private let host: String
    private let port: Int
    private let head: String
    private let registry = Mutex(Registry())

    /// - Precondition: `url` is an `http` URL with a host (``WebhookConfiguration`` checks it).
    init(url: URL, timeout: Double, contentType: String = "application/json") {
        self.url = url
        self.timeout = timeout
        var host = url.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        port = url.port ?? 80
        head = Self.requestHead(for: url, host: host, contentType: contentType)
    }

    /// The request line and header fields, everything but `Content-Length` and the final empty line.
    static func requestHead(for url: URL, host: String, contentType: String = "application/json") -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? ""
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        var authority = host.contains(":") ? "[\(host)]" : host
        if let port = url.port { authority += ":\(port)" }
        var head = "POST \(target) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: location-router\r\n"
            + "Accept: */*\r\nContent-Type: \(contentType)\r\nConnection: close\r\n"
        if let user = components?.user {
            let credentials = (user.removingPercentEncoding ?? user) + ":" + (components?.password.map { $0.removingPercentEncoding ?? $0 } ?? "")
            head += "Authorization: Basic \(Data(credentials.utf8).base64EncodedString())\r\n"
        }
        return head
    }

    /// `POST`s `body` (as the client's content type) and returns how the exchange ended.
    func post(_ body: Data) async -> PlainHTTPResult {
        guard let cancellation = CancellationPipe() else { return .failed("out of file descriptors") }
        let completion = ExchangeCompletion()
        guard let id = register(cancellation, completion) else {
            cancellation.close()
            return .cancelled
        }
        var request = Array((head + "Content-Length: \(body.count)\r\n\r\n").utf8)
        request.append(contentsOf: body)
        let connection = PlainHTTPConnection(
            host: host, port: port, request: request,
            deadline: MonotonicClock.now() &+ UInt64(min(timeout, 86_400) * 1e9), timeout: timeout,
            bodyLimit: Self.bodyLimit)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<PlainHTTPResult, Never>) in
                completion.wait(continuation)
                let thread = Thread {
                    let result = connection.run(cancellation: cancellation)
                    cancellation.close()
                    completion.complete(result)
                }
                thread.name = "location-router webhook"
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
            completion.cancelSoon()
        }
        registry.withLock { _ = $0.inFlight.removeValue(forKey: id) }
        return result
    }

    /// Ends every exchange in flight (they return ``PlainHTTPResult/cancelled``) and refuses new ones.
    func cancelAll() {
        let exchanges = registry.withLock { registry in
            registry.stopped = true
            return Array(registry.inFlight.values)
        }
        for exchange in exchanges {
            exchange.pipe.cancel()
            exchange.completion.cancelSoon()
        }
    }

    private func register(_ cancellation: CancellationPipe, _ completion: ExchangeCompletion) -> UInt64? {
        registry.withLock { registry in
            guard !registry.stopped else { return nil }
            registry.next += 1
            registry.inFlight[registry.next] = (cancellation, completion)
            return registry.next
        }
    }
}
