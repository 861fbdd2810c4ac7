#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Large buffers a loader fills once, backed by 2 MiB pages where the system allows it (Linux's transparent huge
/// pages, when set to `madvise` or `always`).
///
/// Fresh memory costs a page fault for every 4 KiB the first time it is written: the 36 MB of regions decoded
/// from a 35 MB file took about 9,000 faults on the decoder's thread, which the whole run waits for. Advised, the
/// same memory takes one fault per 2 MiB. The advice changes no byte and no address; where it is not supported
/// (or the buffer is small), it is not given.
public enum HugePages {
    /// Below this a buffer cannot span a whole 2 MiB page.
    public static let minimumBytes = 2 << 20

    /// Advises the whole 2 MiB pages within `bytes` bytes from `start`.
    public static func advise(_ start: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
            guard bytes >= minimumBytes else { return }
            let huge = 2 << 20
            let first = (Int(bitPattern: start) + huge - 1) & ~(huge - 1)
            let end = (Int(bitPattern: start) + bytes) & ~(huge - 1)
            guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = madvise(aligned, end - first, Int32(MADV_HUGEPAGE))
        #endif
    }

    /// Advises the storage `array` has reserved (its whole capacity, filled or not).
    public static func advise<Element>(capacityOf array: inout [Element]) {
        let bytes = array.capacity * MemoryLayout<Element>.stride
        guard bytes >= minimumBytes else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { advise(UnsafeMutableRawPointer(base), bytes: bytes) }
        }
    }
}
