import Synchronization

/// Buffers of sample blocks that the router has finished with, for the reader and the decoders to fill again.
///
/// A block's bytes (``LineBlockReader``, 256 KiB) and its decoded samples (``SampleBlockDecoder``, some 300 KB)
/// were fresh allocations of a size that the allocator takes from the kernel and soon gives back: every page of
/// them cost a page fault and a cleared page, which `perf` counted as a tenth of the CPU time of a stream read at
/// full speed. Recycled, they are memory the process already has. The pool keeps at most `limit` of each; a block
/// that is not given back costs a fresh allocation, as before.
public final class SampleBufferPool: Sendable {
    private let spare = Mutex<(bytes: [[UInt8]], samples: [[DecodedSampleBlock.Sample]])>(([], []))
    private let limit: Int

    public init(limit: Int = 8) {
        self.limit = limit
    }

    /// A finished block's bytes, still holding them (``LineBlockReader`` reads over them), or an empty array.
    func takeBytes() -> [UInt8] {
        spare.withLock { $0.bytes.popLast() } ?? []
    }

    /// An empty array of samples, with a finished block's capacity when there is one.
    func takeSamples() -> [DecodedSampleBlock.Sample] {
        spare.withLock { $0.samples.popLast() } ?? []
    }

    /// Takes a block's buffers back. Give only a block that nothing else holds any more (no copy of it, nor the
    /// task that decoded it): the buffers are reused only when this holds the last reference to them.
    public func recycle(_ block: consuming DecodedSampleBlock) {
        var bytes: [UInt8] = []
        var samples: [DecodedSampleBlock.Sample] = []
        swap(&bytes, &block.bytes)
        swap(&samples, &block.samples)
        samples.removeAll(keepingCapacity: true)
        spare.withLock { spare in
            if spare.bytes.count < limit { spare.bytes.append(bytes) }
            if spare.samples.count < limit { spare.samples.append(samples) }
        }
    }
}
