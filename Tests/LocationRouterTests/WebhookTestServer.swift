import Foundation
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 for the webhook tests: one thread accepts, one thread per connection
/// answers a single request (`Content-Length` bodies, `Connection: close`), as `respond` decides.
///
/// It is bounded in every way the machine's network rule asks for: it binds the loopback address only, on an
/// ephemeral port; it accepts at most `maxRequests` connections; and it stops by itself after `lifetime`
/// seconds even if a test forgets `stop()` (long enough for a test whose tasks wait minutes for a thread when the
/// whole suite runs on a busy machine). `listenAfter` keeps the port bound but not listening for a while,
/// so that connections are refused (the kernel answers a bound, non-listening port with a reset) and the
/// sink's retries can be seen to ride it out; `nil` never listens.
final class WebhookTestServer: Sendable {
    struct Request: Sendable {
        let method: String
        let path: String
        /// Header names in lower case.
        let headers: [String: String]
        let body: [UInt8]
        /// Seconds since the server started, when the request was read.
        let received: Double
    }

    struct Response: Sendable {
        /// The status sent, and recorded. With a hostile `answer`, what the test counts the request as: 0 for
        /// "no valid answer", a 2xx if the events count as delivered (the server's independent count).
        var status: Int
        var headers: [(String, String)] = []
        /// Seconds to wait before answering.
        var delay: Double = 0
        /// What is sent back; `.standard` is a well-formed answer with `status` and `headers`.
        var answer: Answer = .standard

        static let ok = Response(status: 200)
    }

    /// One request as the server saw it through to the end of its answer.
    struct Exchange: Sendable {
        let request: Request
        let status: Int
        /// Bytes of the answer the client accepted from the server (written into the connection).
        var bytesSent = 0
        /// Seconds from the first byte of the answer until the server saw the client close the connection;
        /// `nil` if the answer ended (or the server gave up) first.
        var clientClosedAfter: Double?
    }

    /// Decides the answer to request number `index` (0 for the first).
    typealias Responder = @Sendable (_ index: Int, _ request: Request) -> Response

    private struct State {
        var exchanges: [Exchange] = []
        var inFlight = 0
        var peakInFlight = 0
        var connections = 0
        var openConnections = 0
        var stopped = false
        var listenRequested = false
        /// Tests waiting until this many requests have been answered.
        var answerWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var answered = 0
    }

    let port: UInt16
    private let listener: Int32
    private let state = Mutex(State())
    let started = MonotonicTestClock()
    private let respond: Responder

    init(
        listenAfter: Double? = 0, lifetime: Double = 600, maxRequests: Int = 500,
        respond: @escaping Responder = { _, _ in .ok }
    ) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError.system("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            close(fd)
            throw ServerError.system("bind")
        }
        // Listening right away, not in the accept thread, so that a client connecting at once is never refused.
        let listening = listenAfter.map { $0 <= 0 } == true
        guard !listening || listen(fd, 64) == 0 else {
            close(fd)
            throw ServerError.system("listen")
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        self.respond = respond
        let thread = Thread { [self] in
            acceptLoop(listening: listening, listenAfter: listenAfter, lifetime: lifetime, maxRequests: maxRequests)
        }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/events") ?? URL(fileURLWithPath: "/") }

    /// Every request read, with the status it was answered with, in the order they were read.
    var requests: [(request: Request, status: Int)] { exchanges.map { ($0.request, $0.status) } }
    /// Every request read and what became of its answer, in the order they were read.
    var exchanges: [Exchange] { state.withLock { $0.exchanges } }
    /// The most requests that were being answered at the same time.
    var peakInFlight: Int { state.withLock { $0.peakInFlight } }

    /// The events of every request answered with 2xx, one canonical JSON text per event.
    var deliveredEvents: [String] {
        requests.filter { (200..<300).contains($0.status) }.flatMap { canonicalEvents(inArray: $0.request.body) }
    }

    /// Starts listening now (for a server made with `listenAfter: nil`): a connection made after this returns is
    /// not refused.
    func listenNow() {
        _ = listen(listener, 64)
        state.withLock { $0.listenRequested = true }
    }

    /// Suspends until at least `count` requests have been answered (their status decided and recorded).
    func waitForAnswers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.answered < count else { return true }
                state.answerWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Stops accepting; connections being answered finish on their own threads. It does not wait, so that a
    /// test's `defer` never blocks one of the few threads Swift's concurrency runs every test on.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Stops accepting and waits (at most `seconds`) until every connection has been answered, so that the
    /// counts are complete: on a busy machine a connection's thread may read a request only after the client
    /// gave up waiting for the answer.
    func finish(waiting seconds: Double = 20) async {
        stop()
        let deadline = started.seconds + seconds
        while state.withLock({ $0.openConnections > 0 }) && started.seconds < deadline {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    private func acceptLoop(listening: Bool, listenAfter: Double?, lifetime: Double, maxRequests: Int) {
        defer { close(listener) }
        var listening = listening
        while !state.withLock({ $0.stopped }) && started.seconds < lifetime {
            if !listening {
                let requested = state.withLock { $0.listenRequested }
                if requested || listenAfter.map({ started.seconds >= $0 }) == true {
                    guard listen(listener, 64) == 0 else { return }
                    listening = true
                } else {
                    usleep(10_000)
                    continue
                }
            }
            var readable = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&readable, 1, 20) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let admitted = state.withLock { state -> Bool in
                guard state.connections < maxRequests else { return false }
                state.connections += 1
                state.openConnections += 1
                return true
            }
            guard admitted else {
                close(connection)
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                state.withLock { $0.openConnections -= 1 }
            }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        // A request that never comes must not hold this thread forever; but the sink's task that writes it may
        // wait seconds for a thread while the whole suite runs, and a request cut off then becomes a retry that
        // waits its backoff on a test's manual clock, which nothing advances. Hence a long wait for the request.
        var receiveTimeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        // An answer the client stopped reading without closing must not hold this thread forever either.
        var sendTimeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            guard receive(connection, into: &buffer) else { return }
            headerEnd = buffer.firstRange(of: separator)?.lowerBound
        }
        guard let headerEnd else { return }
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = head.first?.split(separator: " ").map(String.init) ?? []
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" { sendAll(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        var body = Array(buffer[(headerEnd + separator.count)...])
        while body.count < length {
            guard receive(connection, into: &body) else { return }
        }
        let request = Request(
            method: requestLine.first ?? "", path: requestLine.dropFirst().first ?? "", headers: headers,
            body: Array(body.prefix(length)), received: started.seconds)
        let index = state.withLock { state -> Int in
            state.inFlight += 1
            state.peakInFlight = max(state.peakInFlight, state.inFlight)
            state.exchanges.append(Exchange(request: request, status: 0))
            return state.exchanges.count - 1
        }
        let response = respond(index, request)
        let answered = state.withLock { state in
            state.exchanges[index] = Exchange(request: request, status: response.status)
            state.answered += 1
            let answered = state.answerWaiters.filter { $0.count <= state.answered }
            state.answerWaiters.removeAll { $0.count <= state.answered }
            return answered
        }
        for waiter in answered { waiter.continuation.resume() }
        if response.delay > 0 { usleep(useconds_t(response.delay * 1e6)) }
        state.withLock { $0.inFlight -= 1 }
        var outcome: (bytesSent: Int, clientClosedAfter: Double?)
        if case .standard = response.answer {
            var text = "HTTP/1.1 \(response.status) Test\r\nContent-Length: 0\r\nConnection: close\r\n"
            for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
            outcome = (sendAll(connection, Array((text + "\r\n").utf8)) ?? 0, nil)
        } else {
            outcome = answer(response.answer, on: connection)
        }
        state.withLock { state in
            state.exchanges[index].bytesSent = outcome.bytesSent
            state.exchanges[index].clientClosedAfter = outcome.clientClosedAfter
        }
        shutdown(connection, Int32(SHUT_WR))
    }

    /// Appends what the peer sent next; `false` at the end of the stream, on an error or after the timeout.
    private func receive(_ connection: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    /// Sends `bytes`. - Returns: `nil` if the connection failed first (the client closed it), else the count.
    @discardableResult
    func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(connection, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return nil }
            offset += sent
        }
        return offset
    }

    enum ServerError: Error {
        case system(String)
    }
}
