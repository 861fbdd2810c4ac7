import Foundation
import Synchronization

/// A small HTTP/1.1 server on POSIX sockets: where a service under test posts its events (`run --listen`), and
/// where the reference service takes samples (`serve`).
///
/// One thread accepts; each connection gets a thread of its own that answers its requests one after the other
/// (keep-alive, `Content-Length` bodies up to ``maxBodyBytes``). `handle` decides each answer's status; the body of
/// an answer is always empty. A malformed request is answered 400 and its connection closed; a connection silent
/// for ``idleSeconds`` (between requests or within one) is closed. ``stop()`` closes
/// the listening socket and waits (boundedly) for the connections being answered.
public final class HTTPListener: Sendable {
    /// Decides the status of a request from its method, path and body.
    public typealias Handler = @Sendable (_ method: String, _ path: String, _ body: [UInt8]) -> Int

    public static let maxBodyBytes = 64 << 20
    /// Connections answered at once; more wait in the kernel's backlog.
    public static let maxConnections = 128
    /// Seconds a connection may stay silent by default — between requests, or in the middle of one — before it is
    /// closed: longer than clients keep an idle connection for reuse (curl, under Foundation's URLSession on Linux,
    /// 118 s; Go 90 s), so that they close first and never send a request into a connection being closed.
    public static let defaultIdleSeconds = 120

    /// Seconds a connection may stay silent before it is closed.
    public let idleSeconds: Int

    /// The address bound (with the port the kernel chose when 0 was asked for).
    public let address: ListenAddress
    private let socketDescriptor: Int32
    private let handle: Handler
    private let state = Mutex((stopped: false, open: 0))

    /// Binds and starts listening. - Throws: ``ListenError`` when the address cannot be bound.
    public init(address: ListenAddress, idleSeconds: Int = defaultIdleSeconds, handle: @escaping Handler) throws(ListenError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenError(address: address, message: String(cString: strerror(errno))) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        guard inet_pton(AF_INET, address.host, &socketAddress.sin_addr) == 1 else {
            close(fd)
            throw ListenError(address: address, message: "not an IPv4 address")
        }
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw ListenError(address: address, message: message)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.address = ListenAddress(host: address.host, port: UInt16(bigEndian: socketAddress.sin_port))
        socketDescriptor = fd
        self.handle = handle
        self.idleSeconds = max(1, idleSeconds)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "location-router listener"
        thread.start()
    }

    /// Stops accepting, and waits up to `timeout` seconds for the requests being answered.
    public func stop(timeout: Double = 5) {
        state.withLock { $0.stopped = true }
        let deadline = Date().addingTimeInterval(timeout)
        while state.withLock({ $0.open > 0 }) && Date() < deadline { usleep(5_000) }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { close(socketDescriptor) }
        while !isStopped {
            var readable = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&readable, 1, 20) > 0 else { continue }
            let connection = accept(socketDescriptor, nil, nil)
            guard connection >= 0 else { continue }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped, state.open < Self.maxConnections else { return false }
                state.open += 1
                return true
            }
            guard admitted else {
                close(connection)
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                state.withLock { $0.open -= 1 }
            }
            thread.start()
        }
    }

    /// Answers the requests of one connection until the peer closes it, asks to, or goes silent.
    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        // Receive timeouts in a row: the connection's silence, in seconds.
        var silence = 0
        while !isStopped || !buffer.isEmpty {
            guard let headerEnd = buffer.firstRange(of: separator)?.lowerBound else {
                guard receiveMore(connection, into: &buffer, silence: &silence), !(isStopped && buffer.isEmpty) else {
                    return
                }
                if buffer.count > 65_536 && buffer.firstRange(of: separator) == nil {
                    respond(connection, status: 431, close: true)
                    return
                }
                continue
            }
            let head = String(decoding: buffer[..<headerEnd], as: UTF8.self).components(separatedBy: "\r\n")
            let requestLine = head.first?.split(separator: " ").map(String.init) ?? []
            var headers: [String: String] = [:]
            for line in head.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard requestLine.count == 3, headers["transfer-encoding"] == nil else {
                respond(connection, status: 400, close: true)
                return
            }
            let length = headers["content-length"].flatMap { Int($0) } ?? 0
            guard length >= 0, length <= Self.maxBodyBytes else {
                respond(connection, status: 413, close: true)
                return
            }
            if headers["expect"]?.lowercased() == "100-continue" { sendAll(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
            let bodyStart = headerEnd + separator.count
            // A body may follow its head in later packets, seconds apart on a loaded machine or a slow link:
            // wait for it as long as for a request, not one receive timeout.
            while buffer.count - bodyStart < length {
                guard receiveMore(connection, into: &buffer, silence: &silence) else { return }
            }
            let body = Array(buffer[bodyStart..<(bodyStart + length)])
            buffer.removeSubrange(0..<(bodyStart + length))
            let status = handle(requestLine[0], requestLine[1], body)
            let closes = headers["connection"]?.lowercased() == "close" || requestLine[2] == "HTTP/1.0"
            respond(connection, status: status, close: closes)
            if closes { return }
        }
    }

    private enum Received { case data, timeout, closed }

    /// Receives what arrives within one receive timeout, counting the timeouts in a row in `silence`; `false` when
    /// the peer closed the connection, or it has been silent for ``idleSeconds`` with nothing waiting to be read.
    private func receiveMore(_ connection: Int32, into buffer: inout [UInt8], silence: inout Int) -> Bool {
        switch receive(connection, into: &buffer) {
        case .data:
            silence = 0
            return true
        case .timeout:
            silence += 1
            return silence < idleSeconds || isReadable(connection)
        case .closed:
            return false
        }
    }

    private func receive(_ connection: Int32, into buffer: inout [UInt8]) -> Received {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return .data
        }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .timeout }
        return .closed
    }

    /// Whether bytes (or the peer's close) wait to be received: a request that arrived while this thread waited
    /// for a core after its last receive timed out is answered, not lost in a close.
    private func isReadable(_ connection: Int32) -> Bool {
        var pending = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        return poll(&pending, 1, 0) > 0
    }

    private func respond(_ connection: Int32, status: Int, close: Bool) {
        let reason = [200: "OK", 204: "No Content", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
                      413: "Content Too Large", 431: "Request Header Fields Too Large", 503: "Service Unavailable"][status] ?? "Status"
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        if status != 204 { text += "Content-Length: 0\r\n" }
        if close { text += "Connection: close\r\n" }
        sendAll(connection, Array((text + "\r\n").utf8))
    }

    private func sendAll(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(connection, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}

/// A listening address that cannot be bound (the CLI exits 74).
public struct ListenError: Error, Sendable, CustomStringConvertible {
    public var address: ListenAddress
    public var message: String
    public var description: String { "\(address): cannot listen (\(message))" }
}
