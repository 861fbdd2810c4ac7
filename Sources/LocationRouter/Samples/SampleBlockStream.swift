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
///
/// A stream started before the pipeline exists (``SampleInput/startReading()``, while the regions load) may read
/// `readAhead` blocks more until the router comes (``stopReadingAhead()``): they are decoded on the other core
/// meanwhile, and the router finds them ready. Their permits are not given back, so past them the bound is
/// `depth` again. The reader reads the preamble itself (``SamplePreamble``, as the router will) so that the
/// blocks after it are decoded without waiting for the router to learn the format.
final class SampleBlockStream: Sendable {
    enum Item: Sendable {
        /// A block being decoded; the task's value is the decoded block.
        case decoding(Task<DecodedSampleBlock, Never>)
        /// A block read before the format was known (or a line too long to hold): the router reads it itself.
        case undecoded(LineBlock)
    }

    let items: AsyncThrowingStream<Item, any Error>
    /// The descriptor read.
    let descriptor: Int32
    private let permits: DispatchSemaphore
    /// The read-ahead permits: how many were given, then (from ``stopReadingAhead()``) how many of the blocks
    /// they let the reader read are still to be consumed without giving their permits back.
    private let readAhead: Mutex<Int>
    private let continuation: AsyncThrowingStream<Item, any Error>.Continuation
    /// How many blocks the reader has handed over that the router has not taken yet (``consumed()``).
    private let waiting = Atomic<Int>(0)
    /// How blocks are decoded, once the preamble has told it.
    private let format: Mutex<SampleBlockDecoder.Format?>
    /// The buffers of blocks the router has finished with (``SampleBufferPool/recycle(_:)``), which the reader and
    /// the decoders fill again.
    let buffers = SampleBufferPool()

    /// How many bytes each read asks for.
    static let blockSize = 1 << 18

    init(
        descriptor: Int32, name: String, format: SampleFormat?, maxLineLength: Int,
        blockSize: Int = blockSize, depth: Int = 4, readAhead: Int = 0
    ) {
        // Created at 0 and signalled up to `depth`: libdispatch traps when a semaphore is released with a
        // value below the one it was created with, which happens here whenever the reader stops early.
        let permits = DispatchSemaphore(value: 0)
        for _ in 0..<depth + readAhead { permits.signal() }
        let (items, continuation) = AsyncThrowingStream<Item, any Error>.makeStream()
        // A router that stops listening (an error, a stop) lets a waiting reader go and end.
        continuation.onTermination = { _ in permits.signal() }
        self.items = items
        self.permits = permits
        self.continuation = continuation
        // NDJSON has no header: its blocks decode from the first. A CSV stream's wait for its header.
        self.format = Mutex(format == .ndjson ? .ndjson : nil)
        self.descriptor = descriptor
        self.readAhead = Mutex(readAhead)
        Self.growPipe(descriptor, to: 4 * blockSize)
        let thread = Thread { [self] in
            var reader = LineBlockReader(blockSize: blockSize, maxLineLength: maxLineLength, buffers: buffers)
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
                        Task.detached { [buffers] in
                            SampleBlockDecoder.decode(
                                bytes, firstLine: firstLine, as: format, maxLineLength: maxLineLength, buffers: buffers)
                        })
                } else {
                    // The router reads this block's preamble (and reports its errors); when it reads without
                    // error, the blocks after it decode as the router will tell, without waiting for it.
                    if case .lines(let bytes, let firstLine, _) = block,
                        let preamble = try? SamplePreamble.read(
                            bytes, firstLine: firstLine, format: format, maxLineLength: maxLineLength)
                    {
                        self.decode(as: preamble.format)
                    }
                    item = .undecoded(block)
                }
                // Counted before it is handed over, so that the router never takes a block not counted yet.
                waiting.add(1, ordering: .relaxed)
                if case .terminated = continuation.yield(item) { return }
            }
        }
        thread.name = "location-router reader"
        thread.start()
    }

    /// Decodes the blocks read from now on as `format`, on the cooperative pool.
    func decode(as format: SampleBlockDecoder.Format) { self.format.withLock { $0 = format } }

    /// Takes back the read-ahead permits the reader has not used: from now on it reads at most `depth` blocks
    /// ahead of the router, once the blocks it has read ahead are consumed. The router calls it when it starts.
    func stopReadingAhead() {
        readAhead.withLock { given in
            var unused = 0
            while unused < given, permits.wait(timeout: .now()) == .success { unused += 1 }
            given -= unused
        }
    }

    /// Whether blocks the router has not taken yet are already read: more input is here, and the samples routed so
    /// far may wait for it to fill their batches instead of going out half empty.
    var hasBlocksWaiting: Bool { waiting.load(ordering: .relaxed) > 0 }

    /// Lets the reader read one more block (unless the block was read ahead).
    func consumed() {
        waiting.subtract(1, ordering: .relaxed)
        let wasReadAhead = readAhead.withLock { left in
            guard left > 0 else { return false }
            left -= 1
            return true
        }
        if !wasReadAhead { permits.signal() }
    }

    /// Ends the stream after the blocks already read (the reader thread stays blocked in `read` until the
    /// process ends or input arrives; it then stops).
    func finish() { continuation.finish() }

    /// Grows the pipe that `descriptor` reads, if it is one, to hold `size` bytes. A pipe holds 64 KiB by default
    /// on Linux: the reader then takes a block in four reads and a poll, and a writer faster than the reader is
    /// stopped and woken every 64 KiB (a third more context switches and about a tenth more CPU time than the same
    /// lines read from a file, by `perf stat`). Refused (beyond the system's limit) or elsewhere, reading works
    /// as before.
    private static func growPipe(_ descriptor: Int32, to size: Int) {
        #if os(Linux)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), which the C library declares only for GNU sources.
        let setPipeSize: Int32 = 1031
        _ = fcntl(descriptor, setPipeSize, Int32(size))
        #endif
    }

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
