import Foundation

/// Reads a file descriptor on a thread of its own (with a ``ChunkedFileReader``) and hands its bytes over in chunks.
///
/// Reading standard input blocks for as long as the writer is silent; doing it on a dedicated thread keeps the
/// cooperative pool free for the monitors, so events of samples already read are dispatched meanwhile. At most
/// `depth` chunks wait unconsumed: the reader stops reading until the consumer calls ``consumed()``.
final class DescriptorChunks: Sendable {
    let stream: AsyncThrowingStream<[UInt8], any Error>
    private let permits: DispatchSemaphore
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation

    init(descriptor: Int32, name: String, chunkSize: Int = 1 << 18, depth: Int = 4) {
        // Created at 0 and signalled up to `depth`: libdispatch traps when a semaphore is released with a
        // value below the one it was created with, which happens here whenever the reader stops early.
        let permits = DispatchSemaphore(value: 0)
        for _ in 0..<depth { permits.signal() }
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        self.stream = stream
        self.permits = permits
        self.continuation = continuation
        let thread = Thread {
            let reader = ChunkedFileReader(descriptor: descriptor, name: name, chunkSize: chunkSize)
            while true {
                permits.wait()
                let chunk: [UInt8]?
                do {
                    chunk = try reader.next()
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
                guard let chunk else {
                    continuation.finish()
                    return
                }
                if case .terminated = continuation.yield(chunk) { return }
            }
        }
        thread.name = "location-router reader"
        thread.start()
    }

    /// Lets the reader read one more chunk.
    func consumed() { permits.signal() }

    /// Ends the stream after the chunks already read (the reader thread stays blocked in `read` until the
    /// process ends or input arrives; it then stops).
    func finish() { continuation.finish() }
}

