import Foundation
import GeofenceFormats
import Synchronization

/// Reads a sample stream on a thread of its own, cuts it into blocks of whole lines (``LineBlockReader``) and
/// starts decoding each block on the cooperative pool as soon as it is read: reading, decoding (on every core)
/// and the router's walk over the decoded blocks overlap, instead of each chunk waiting for the one before.
///
/// Reading standard input blocks for as long as the writer is silent; doing it on a dedicated thread keeps the
/// cooperative pool free for the decoders and monitors. Memory is bounded: at most `depth` blocks are read and
/// not yet consumed (``consumed()``); the reader waits for the router before reading more.
final class SampleBlockStream: Sendable {
    enum Item: Sendable {
        /// A block being decoded; the task's value is the decoded block.
        case decoding(Task<DecodedSampleBlock, Never>)
        /// A block read before the format was known (or a line too long to hold): the router reads it itself.
        case undecoded(LineBlock)
    }

    let items: AsyncThrowingStream<Item, any Error>
    private let permits: DispatchSemaphore
    private let continuation: AsyncThrowingStream<Item, any Error>.Continuation
    /// How blocks are decoded, once the router has learnt it from the stream's first line.
    private let format: Mutex<SampleBlockDecoder.Format?>

    init(
        descriptor: Int32, name: String, format: SampleBlockDecoder.Format?, maxLineLength: Int,
        blockSize: Int = 1 << 18, depth: Int = 4
    ) {
        // Created at 0 and signalled up to `depth`: libdispatch traps when a semaphore is released with a
        // value below the one it was created with, which happens here whenever the reader stops early.
        let permits = DispatchSemaphore(value: 0)
        for _ in 0..<depth { permits.signal() }
        let (items, continuation) = AsyncThrowingStream<Item, any Error>.makeStream()
        // A router that stops listening (an error, a stop) lets a waiting reader go and end.
        continuation.onTermination = { _ in permits.signal() }
        self.items = items
        self.permits = permits
        self.continuation = continuation
        self.format = Mutex(format)
        let thread = Thread { [self] in
            var reader = LineBlockReader(blockSize: blockSize, maxLineLength: maxLineLength)
            while true {
                permits.wait()
                let block: LineBlock?
                do {
                    block = try reader.next { try Self.readAvailable(descriptor, name: name, into: $0) }
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
                guard let block else {
                    continuation.finish()
                    return
                }
                let item: Item
                if case .lines(let bytes, let firstLine, _) = block, let format = self.format.withLock({ $0 }) {
                    item = .decoding(
                        Task.detached {
                            SampleBlockDecoder.decode(bytes, firstLine: firstLine, as: format, maxLineLength: maxLineLength)
                        })
                } else {
                    item = .undecoded(block)
                }
                if case .terminated = continuation.yield(item) { return }
            }
        }
        thread.name = "location-router reader"
        thread.start()
    }

    /// Decodes the blocks read from now on as `format`, on the cooperative pool.
    func decode(as format: SampleBlockDecoder.Format) { self.format.withLock { $0 = format } }

    /// Lets the reader read one more block.
    func consumed() { permits.signal() }

    /// Ends the stream after the blocks already read (the reader thread stays blocked in `read` until the
    /// process ends or input arrives; it then stops).
    func finish() { continuation.finish() }

    /// Fills `buffer` with what the descriptor has: waits for the first bytes (or the end), then takes more only
    /// while more is ready at once. A file or a fast pipe gives whole blocks (a pipe hands over 64 KiB per read);
    /// a slow live stream's lines are not held back waiting for a block to fill.
    private static func readAvailable(
        _ descriptor: Int32, name: String, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) throws(InputReadError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            if filled > 0 {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 0) > 0, ready.revents & Int16(POLLIN) != 0 else { break }
            }
            let count = read(descriptor, base + filled, buffer.count - filled)
            if count < 0 {
                let failure = errno
                if failure == EINTR { continue }
                if filled > 0 { break }  // what was read first; the next read reports the failure
                throw InputReadError(name: name, message: String(cString: strerror(failure)))
            }
            guard count > 0 else { break }
            filled += count
        }
        return filled
    }
}
