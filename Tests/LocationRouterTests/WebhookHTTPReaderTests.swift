import GeofenceKit
import Testing
@testable import LocationRouter

/// The webhook's own HTTP/1.1 answer reader: strict about the head (a garbled answer is never a 2xx), bounded
/// in what it keeps and reads, and never trapping on anything a receiver can send.
@Suite struct WebhookHTTPReaderTests {
    /// Feeds `answer` in pieces of `piece` bytes, then the end of the stream unless the reader is done first.
    static func read(_ answer: String, piece: Int = 1, bodyLimit: Int = 64 * 1024, close: Bool = true)
        -> (progress: HTTPResponseReader.Progress, reader: HTTPResponseReader)
    {
        read(Array(answer.utf8), piece: piece, bodyLimit: bodyLimit, close: close)
    }

    static func read(_ bytes: [UInt8], piece: Int = 1, bodyLimit: Int = 64 * 1024, close: Bool = true)
        -> (progress: HTTPResponseReader.Progress, reader: HTTPResponseReader)
    {
        var reader = HTTPResponseReader(bodyLimit: bodyLimit)
        var start = 0
        while start < bytes.count {
            let progress = reader.consume(bytes[start..<min(start + piece, bytes.count)])
            if progress != .needsMore { return (progress, reader) }
            start += piece
        }
        return (close ? reader.endOfStream() : .needsMore, reader)
    }

    @Test(arguments: [1, 7, 4096])
    func aCompleteAnswerIsReadWhateverPiecesItArrivesIn(piece: Int) {
        let (progress, reader) = Self.read(
            "HTTP/1.1 429 Too Many\r\nRetry-After: 3\r\nContent-Length: 5\r\n\r\nhello", piece: piece, close: false)
        #expect(progress == .finished, "Content-Length says where it ends; no need to wait for the close")
        #expect(reader.head?.status == 429)
        #expect(reader.head?.value(for: "retry-after") == "3")
        #expect(reader.bodyBytesRead == 5 && !reader.stoppedAtLimit)
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\n",  // the status line, then the connection closes: the FoundationNetworking crash
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n",  // a head without its empty line
        "",  // closed without a byte
        "garbage\r\n\r\n",
        "HTTP/1.1 2000 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 099 Low\r\n\r\n",
        "HTTP/1.1 600 High\r\n\r\n",
        "HTTP/1.1 200OK\r\n\r\n",
        "HTTP/x.1 200 OK\r\n\r\n",
        "ICY 200 OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
        "HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n",
        " folded: at the start\r\nHTTP/1.1 200 OK\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\n",  // only an interim answer
    ])
    func anythingButAWellFormedFinalAnswerIsMalformed(answer: String) {
        let (progress, reader) = Self.read(answer)
        guard case .malformed = progress else {
            Issue.record("\(answer.debugDescription) was taken as \(progress)")
            return
        }
        #expect(reader.head == nil)
    }

    @Test func aHugeHeadIsRefusedOnceItPassesTheLimitWithoutBeingKept() {
        var reader = HTTPResponseReader(bodyLimit: 1024)
        #expect(reader.consume(Array("HTTP/1.1 200 OK\r\nX-Big: ".utf8)[...]) == .needsMore)
        let filler = [UInt8](repeating: UInt8(ascii: "a"), count: 1024)
        var fed = 0
        var progress = HTTPResponseReader.Progress.needsMore
        while progress == .needsMore && fed < 10 * HTTPResponseReader.headLimit {
            progress = reader.consume(filler[...])
            fed += filler.count
        }
        #expect(progress == .malformed("the answer's head exceeds 64 KiB"))
        #expect(fed <= HTTPResponseReader.headLimit + filler.count, "refused as soon as the limit was passed")
    }

    @Test func interimAnswersAreSkipped() {
        let (progress, reader) = Self.read(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n",
            piece: 5, close: false)
        #expect(progress == .finished)
        #expect(reader.head?.status == 201)
    }

    @Test func bareLineFeedsAndFoldedFieldsAreAccepted() {
        let (progress, reader) = Self.read("HTTP/1.0 503 Busy\nRetry-After:\n 7\nX-Other: y\n\n", close: true)
        #expect(progress == .finished)
        #expect(reader.head?.status == 503)
        #expect(reader.head?.value(for: "Retry-After") == "7")
    }

    @Test func aStatusLineWithoutReasonIsAccepted() {
        let (progress, reader) = Self.read("HTTP/1.1 204\r\n\r\n", close: false)
        #expect(progress == .finished, "204 has no body")
        #expect(reader.head?.status == 204)
    }

    @Test func aChunkedBodyIsFollowedToItsEnd() {
        let (progress, reader) = Self.read(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nTrailer: t\r\n\r\n",
            piece: 3, close: false)
        #expect(progress == .finished)
        #expect(!reader.stoppedAtLimit)
        #expect(reader.head?.status == 200)
    }

    @Test(arguments: [
        "Transfer-Encoding: chunked\r\n",
        "Content-Length: 100000000\r\n",
        "",  // until the connection closes
        "Transfer-Encoding: gzip\r\n",
        "Content-Length: 5, 6\r\n",
        "Content-Length: -1\r\n",
    ])
    func anEndlessBodyIsReadOnlyUpToTheLimit(framing: String) {
        let limit = 4096
        var reader = HTTPResponseReader(bodyLimit: limit)
        #expect(reader.consume(Array("HTTP/1.1 200 OK\r\n\(framing)\r\n".utf8)[...]) == .needsMore)
        let chunk = Array((framing.contains("chunked") ? "400\r\n" + String(repeating: "x", count: 1024) + "\r\n" : String(repeating: "x", count: 1000)).utf8)
        var fed = 0
        var progress = HTTPResponseReader.Progress.needsMore
        while progress == .needsMore && fed < 100 * limit {
            progress = reader.consume(chunk[...])
            fed += chunk.count
        }
        #expect(progress == .finished)
        #expect(reader.stoppedAtLimit)
        #expect(reader.bodyBytesRead == limit)
        #expect(reader.head?.status == 200, "the answer stands: only the reading of its body stopped")
    }

    @Test(arguments: ["-5", "zz", "ffffffffffffffffffff", ""])
    func aBrokenChunkSizeEndsTheReadingWithoutTrapping(size: String) {
        let (progress, reader) = Self.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nabc\r\n", close: false)
        #expect(progress == .finished)
        #expect(reader.head?.status == 200)
    }

    @Test func aTruncatedBodyStillLeavesTheAnswer() {
        let (progress, reader) = Self.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
        #expect(progress == .finished)
        #expect(reader.head?.status == 200 && reader.bodyBytesRead == 3)
    }

    @Test func arbitraryBytesNeverTrap() {
        var generator = SplitMix64(seed: 9)
        for round in 0..<300 {
            let prefix = round % 2 == 0 ? Array("HTTP/1.1 200 OK\r\n".utf8) : []
            let noise = (0..<Int(generator.next() % 400)).map { _ in
                // Mostly the bytes HTTP framing is made of, so the parser's branches are all reached.
                let alphabet = Array("HTTP/1.0 2:\r\n\r\n;-0aF ".utf8)
                return generator.next() % 4 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }
            let (progress, reader) = Self.read(prefix + noise, piece: 1 + round % 13, bodyLimit: 64)
            if case .malformed = progress { #expect(reader.head == nil) }
            #expect(reader.bodyBytesRead <= 64)
        }
    }
}
