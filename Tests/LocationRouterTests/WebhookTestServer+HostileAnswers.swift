import Foundation

/// The answers of misbehaving receivers, for the tests that make sure none of them can crash, hang or bloat
/// the sink: truncated, garbled or missing answers, answers trickled byte by byte, endless bodies.
extension WebhookTestServer {
    enum Answer: Sendable {
        /// A well-formed answer with the response's status and headers.
        case standard
        /// These bytes, then the server closes its side (and waits for the client to close its own).
        case raw([UInt8])
        /// The server closes its side without a byte of answer.
        case silence
        /// `head`, then `count` bytes one every `interval` seconds, until the client closes the connection.
        case trickle(head: [UInt8], count: Int, interval: Double)
        /// `head`, then body bytes as fast as the client takes them, until it closes the connection (or
        /// `limit` bytes, a safety net for a broken client).
        case endless(head: [UInt8], limit: Int = 1 << 30)

        /// `HTTP/1.1 200 OK` with `fields`, ending the head.
        static func head(_ fields: String = "") -> [UInt8] {
            Array("HTTP/1.1 200 OK\r\n\(fields)\r\n".utf8)
        }

        /// A complete 200 head announcing a body of `count` bytes, then that body one byte every `interval`
        /// seconds: the length is written once, so the head and the body always agree.
        static func trickledBody(count: Int, interval: Double) -> Answer {
            .trickle(head: head("Content-Length: \(count)\r\n"), count: count, interval: interval)
        }
    }

    /// Sends a hostile `answer` and watches for the client closing the connection.
    func answer(_ answer: Answer, on connection: Int32) -> (bytesSent: Int, clientClosedAfter: Double?) {
        let clock = MonotonicTestClock()
        switch answer {
        case .standard:
            return (0, nil)
        case .silence, .raw:
            var sent = 0
            if case .raw(let bytes) = answer {
                guard let count = sendAll(connection, bytes) else { return (0, clock.seconds) }
                sent = count
            }
            shutdown(connection, Int32(SHUT_WR))
            // The answer is over as far as the server is concerned: now the client must notice and hang up.
            return (sent, Self.peerClosed(connection, waiting: 20) ? clock.seconds : nil)
        case .trickle(let head, let count, let interval):
            guard var sent = sendAll(connection, head) else { return (0, clock.seconds) }
            for _ in 0..<count {
                if Self.peerClosed(connection, waiting: interval) { return (sent, clock.seconds) }
                guard sendAll(connection, [UInt8(ascii: "x")]) != nil else { return (sent, clock.seconds) }
                sent += 1
            }
            return (sent, nil)
        case .endless(let head, let limit):
            guard var sent = sendAll(connection, head) else { return (0, clock.seconds) }
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
            while sent < limit {
                guard !Self.peerClosed(connection, waiting: 0), let count = sendAll(connection, chunk) else {
                    return (sent, clock.seconds)
                }
                sent += count
            }
            return (sent, nil)
        }
    }

    /// Whether the client closed its end within `seconds`: it sends nothing after its request, so anything
    /// readable now is the end of the stream (or a reset).
    private static func peerClosed(_ connection: Int32, waiting seconds: Double) -> Bool {
        var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(connection, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }
}
