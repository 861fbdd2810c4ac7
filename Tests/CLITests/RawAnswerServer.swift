import Foundation
import Synchronization

/// A receiver on 127.0.0.1 that reads each request (head and `Content-Length` body) and answers with fixed
/// bytes, then closes: the misbehaving webhook receivers of the CLI tests. It counts the requests it read, so a
/// test checks the report against an independent count.
///
/// It binds the loopback address only, on an ephemeral port, listens before its constructor returns, and stops
/// by itself after `lifetime` seconds even if a test forgets `stop()`.
final class RawAnswerServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let answer: [UInt8]
    private let state = Mutex((requests: 0, stopped: false))

    init(answer: [UInt8], lifetime: Double = 600) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ready, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        self.answer = answer
        let started = DispatchTime.now().uptimeNanoseconds
        Thread { [self] in
            defer { close(listener) }
            while !state.withLock({ $0.stopped }) && Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 < lifetime {
                var readable = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&readable, 1, 20) > 0 else { continue }
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { continue }
                serve(connection)
                close(connection)
            }
        }.start()
    }

    var url: String { "http://127.0.0.1:\(port)/events" }
    /// Requests read in full.
    var requests: Int { state.withLock { $0.requests } }

    func stop() {
        state.withLock { $0.stopped = true }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let end = received.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count - end >= length { break }
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            received.append(contentsOf: chunk[..<count])
        }
        state.withLock { $0.requests += 1 }
        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
