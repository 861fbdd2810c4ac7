import Foundation

/// One `http://` exchange over a POSIX socket: connect, send the request, read the answer — all under one
/// deadline and a ``CancellationPipe``, and all in blocking calls, so it runs on a thread of its own.
///
/// Every wait is a `poll` on the socket and the cancellation pipe with the time left until the deadline, so a
/// receiver that trickles its answer, never answers, or answers forever cannot hold the thread past the
/// deadline, and a cancellation ends the exchange at once. Nothing the receiver sends can crash the process:
/// whatever is not a well-formed answer is a ``PlainHTTPResult/failed(_:)``.
struct PlainHTTPConnection: Sendable {
    let host: String
    let port: Int
    /// The request's bytes, head and body.
    let request: [UInt8]
    /// Monotonic nanoseconds (``MonotonicClock``) by which the exchange must end.
    let deadline: UInt64
    /// The seconds the deadline stands for, to say so in a timeout's reason.
    let timeout: Double
    let bodyLimit: Int

    private enum Wait {
        case ready, timedOut, cancelled
    }

    private struct Stop: Error {
        let result: PlainHTTPResult
    }

    func run(cancellation: CancellationPipe) -> PlainHTTPResult {
        // Cancelled before the thread got going: not a byte goes out.
        guard !cancellation.isCancelled else { return .cancelled }
        do throws(Stop) {
            let socket = try connect(cancellation)
            defer { _ = close(socket) }
            let sendError = sendRequest(on: socket, cancellation)
            return try readAnswer(from: socket, cancellation, sendError: sendError)
        } catch {
            return error.result
        }
    }

    /// Resolves the host and connects to its addresses in turn; the first that accepts wins.
    private func connect(_ cancellation: CancellationPipe) throws(Stop) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Stop(result: .failed("cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address for \(host)"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else {
                lastError = String(cString: strerror(errno))
                continue
            }
            if Foundation.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastError = String(cString: strerror(errno))
                _ = close(fd)
                continue
            }
            switch wait(fd, for: Int16(POLLOUT), cancellation) {
            case .cancelled:
                _ = close(fd)
                throw Stop(result: .cancelled)
            case .timedOut:
                _ = close(fd)
                throw Stop(result: .failed("could not connect to \(host):\(port) within \(timeout) s"))
            case .ready:
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0 { return fd }
                lastError = String(cString: strerror(error == 0 ? errno : error))
                _ = close(fd)
            }
        }
        throw Stop(result: .failed("cannot connect to \(host):\(port): \(lastError)"))
    }

    /// Sends the whole request.
    /// - Returns: why it could not be sent entirely, or `nil`. A receiver may answer (say, 413) and close
    ///   before reading everything, so the answer is read even then.
    private func sendRequest(on socket: Int32, _ cancellation: CancellationPipe) -> String? {
        var offset = 0
        while offset < request.count {
            let sent = request.withUnsafeBytes { buffer in
                send(socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else {
                return "sending the request: \(sent == 0 ? "the connection closed" : String(cString: strerror(errno)))"
            }
            switch wait(socket, for: Int16(POLLOUT), cancellation) {
            case .ready: continue
            case .timedOut: return "the request could not be sent within \(timeout) s"
            case .cancelled: return "cancelled"
            }
        }
        return nil
    }

    /// Reads until the answer is complete, the body limit is reached, or the deadline passes. Once the head is
    /// in, the answer stands whatever happens to the body.
    private func readAnswer(from socket: Int32, _ cancellation: CancellationPipe, sendError: String?) throws(Stop) -> PlainHTTPResult {
        var reader = HTTPResponseReader(bodyLimit: bodyLimit)
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let progress: HTTPResponseReader.Progress
            switch wait(socket, for: Int16(POLLIN), cancellation) {
            case .cancelled:
                // An answer already read stands: the receiver has the events, whatever becomes of its body.
                if let head = reader.head { return .answered(head, bodyBytes: reader.bodyBytesRead) }
                throw Stop(result: .cancelled)
            case .timedOut:
                if let head = reader.head { return .answered(head, bodyBytes: reader.bodyBytesRead) }
                throw Stop(result: .failed(sendError ?? "no complete answer within \(timeout) s"))
            case .ready:
                let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                    if let head = reader.head { return .answered(head, bodyBytes: reader.bodyBytesRead) }
                    throw Stop(result: .failed(sendError ?? "reading the answer: \(String(cString: strerror(errno)))"))
                }
                progress = count == 0 ? reader.endOfStream() : reader.consume(chunk[..<count])
            }
            switch progress {
            case .needsMore:
                continue
            case .finished:
                guard let head = reader.head else { throw Stop(result: .failed("no answer")) }
                return .answered(head, bodyBytes: reader.bodyBytesRead)
            case .malformed(let reason):
                throw Stop(result: .failed(sendError.map { "\($0); \(reason)" } ?? reason))
            }
        }
    }

    /// Polls `socket` for `events` and the cancellation pipe, for the time left until the deadline.
    private func wait(_ socket: Int32, for events: Int16, _ cancellation: CancellationPipe) -> Wait {
        while true {
            if cancellation.isCancelled { return .cancelled }
            let now = MonotonicClock.now()
            guard now < deadline else { return .timedOut }
            // Rounded up, so a wait never ends just short of the deadline and spins.
            let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            var descriptors = [
                pollfd(fd: socket, events: events, revents: 0),
                pollfd(fd: cancellation.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let count = poll(&descriptors, 2, milliseconds)
            if count < 0 && errno != EINTR { return .ready }  // let the next call report the socket's error
            if descriptors[1].revents != 0 { return .cancelled }
            if descriptors[0].revents != 0 { return .ready }
        }
    }
}
