/// Reads one HTTP/1.1 response from the bytes of a connection in bounded memory: it keeps the head (at most
/// ``headLimit`` bytes) and discards the body, reading at most `bodyLimit` bytes of it.
///
/// The head decides the outcome; the body is only drained, so that a well-behaved receiver sees its answer read
/// rather than the connection reset. Its end is found from `Content-Length`, the chunked framing, or the end of
/// the connection; an endless, oversized or malformed body simply ends the reading at the limit. Interim 1xx
/// answers (100 Continue, 102, 103) are skipped, as HTTP requires of a client.
struct HTTPResponseReader: Sendable {
    enum Progress: Sendable, Equatable {
        /// Read more bytes (a head is incomplete, or the body continues).
        case needsMore
        /// The response is complete, or as complete as it will be read: ``head`` holds the answer.
        case finished
        /// No valid answer can come of these bytes.
        case malformed(String)
    }

    /// The largest head accepted, status line and fields together.
    static let headLimit = 64 * 1024
    /// Interim answers tolerated before the final one.
    static let interimLimit = 16
    /// The longest chunk-size or trailer line: beyond it the framing is considered broken.
    private static let lineLimit = 4 * 1024

    private enum Body: Sendable {
        case awaitingHead
        case length(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
        case done
    }

    let bodyLimit: Int
    /// The final answer's head, once read.
    private(set) var head: HTTPResponseHead?
    /// Bytes read after the final head (body and chunk framing), all discarded.
    private(set) var bodyBytesRead = 0
    /// Whether reading stopped at ``bodyLimit`` before the body ended.
    private(set) var stoppedAtLimit = false
    private var body = Body.awaitingHead
    /// Head bytes not yet terminated, or a chunk-framing line not yet ended.
    private var pending: [UInt8] = []
    private var interimAnswers = 0

    init(bodyLimit: Int) {
        self.bodyLimit = max(0, bodyLimit)
    }

    /// Takes the next bytes received.
    mutating func consume(_ bytes: ArraySlice<UInt8>) -> Progress {
        if case .awaitingHead = body { return consumeHead(bytes) }
        if case .done = body { return .finished }
        return consumeBody(bytes)
    }

    /// The peer closed the connection: a body read until the close is complete (and a shorter one than
    /// announced is as complete as it will be); a missing or partial head is no answer.
    mutating func endOfStream() -> Progress {
        if head != nil {
            body = .done
            return .finished
        }
        return .malformed(pending.isEmpty && interimAnswers == 0
            ? "the connection closed without an answer" : "the connection closed in the middle of the answer")
    }

    /// Appends to the unfinished head; once it is complete, parses it and goes on with the bytes after it.
    private mutating func consumeHead(_ bytes: ArraySlice<UInt8>) -> Progress {
        let searchFrom = max(0, pending.count - 3)
        pending.append(contentsOf: bytes)
        let tooLarge = Progress.malformed("the answer's head exceeds \(Self.headLimit / 1024) KiB")
        guard let (headEnd, bodyStart) = Self.endOfHead(in: pending, from: searchFrom) else {
            return pending.count > Self.headLimit ? tooLarge : .needsMore
        }
        guard headEnd <= Self.headLimit else { return tooLarge }
        guard let parsed = HTTPResponseHead(pending[..<headEnd]) else {
            return .malformed("not an HTTP/1.x answer: \(Self.excerpt(pending[..<headEnd]))")
        }
        let after = Array(pending[bodyStart...])
        pending = []
        if [100, 102, 103].contains(parsed.status) {
            interimAnswers += 1
            guard interimAnswers <= Self.interimLimit else { return .malformed("more than \(Self.interimLimit) interim answers") }
            // Recursion depth is bounded by the interim limit.
            return consumeHead(after[...])
        }
        head = parsed
        body = Self.framing(of: parsed)
        if case .done = body { return .finished }
        return consumeBody(after[...])
    }

    /// RFC 9112 §6.3: no body after 1xx, 204 and 304; chunked if it is the last transfer coding; otherwise
    /// `Content-Length` if it is one valid number; otherwise until the connection closes.
    private static func framing(of head: HTTPResponseHead) -> Body {
        if head.status < 200 || head.status == 204 || head.status == 304 { return .done }
        let codings = head.values(for: "Transfer-Encoding")
        if let last = codings.last {
            return last.lowercased() == "chunked" ? .chunkSize : .untilClose
        }
        let lengths = Set(head.values(for: "Content-Length"))
        if lengths.count == 1, let text = lengths.first, !text.isEmpty, text.utf8.count <= 18,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let length = Int(text)
        {
            return length == 0 ? .done : .length(remaining: length)
        }
        return .untilClose
    }

    /// Discards body bytes, following the framing to find the end, and stops at the limit.
    private mutating func consumeBody(_ bytes: ArraySlice<UInt8>) -> Progress {
        var rest = bytes.prefix(max(0, bodyLimit - bodyBytesRead))
        bodyBytesRead += rest.count
        while !rest.isEmpty {
            switch body {
            case .awaitingHead, .done, .untilClose:
                rest = []
            case .length(let remaining):
                let taken = min(remaining, rest.count)
                rest = rest.dropFirst(taken)
                body = taken == remaining ? .done : .length(remaining: remaining - taken)
            case .chunkData(let remaining):
                let taken = min(remaining, rest.count)
                rest = rest.dropFirst(taken)
                body = taken == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - taken)
            case .chunkSize, .chunkDataEnd, .trailers:
                guard let line = takeLine(&rest) else { continue }
                body = Self.next(after: body, line: line)
            }
        }
        if case .done = body { return .finished }
        if bodyBytesRead >= bodyLimit {
            stoppedAtLimit = true
            return .finished
        }
        return .needsMore
    }

    /// A whole framing line from `pending` and `rest`, or `nil` (everything kept in `pending`) when it has not
    /// ended yet. An overlong line breaks the framing: the reading ends.
    private mutating func takeLine(_ rest: inout ArraySlice<UInt8>) -> [UInt8]? {
        guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else {
            pending.append(contentsOf: rest)
            rest = []
            if pending.count > Self.lineLimit { body = .done }
            return nil
        }
        var line = pending + rest[..<newline]
        pending = []
        rest = rest[(newline + 1)...]
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }

    private static func next(after state: Body, line: [UInt8]) -> Body {
        switch state {
        case .chunkSize:
            let size = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            guard !size.isEmpty, size.count <= 15, size.allSatisfy(isHexDigit),
                let value = Int(String(decoding: size, as: UTF8.self), radix: 16)
            else { return .done }
            return value == 0 ? .trailers : .chunkData(remaining: value)
        case .chunkDataEnd:
            return line.isEmpty ? .chunkSize : .done
        case .trailers:
            return line.isEmpty ? .done : .trailers
        default:
            return state
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }

    /// Where the head ends (the empty line) and the body starts, searching `bytes` from `start`.
    private static func endOfHead(in bytes: [UInt8], from start: Int) -> (headEnd: Int, bodyStart: Int)? {
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return (index, index + 2) }
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == UInt8(ascii: "\n") {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// The start of an unusable answer, printable, for the retry reason.
    private static func excerpt(_ bytes: ArraySlice<UInt8>) -> String {
        let printable = bytes.prefix(40).map { $0 >= 0x20 && $0 < 0x7F ? Character(Unicode.Scalar($0)) : "." }
        return "\"" + String(printable) + (bytes.count > 40 ? "…" : "") + "\""
    }
}
