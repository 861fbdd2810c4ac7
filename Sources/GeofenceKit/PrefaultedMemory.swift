#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Large tables about to be written through, their pages faulted in by a system call per 4 MiB instead of one page
/// fault per 4 KiB (Linux's `MADV_POPULATE_WRITE`, since 5.14).
///
/// Registering a million devices writes 650 MB of fresh slot tables, rows and walkers: about 166,000 page faults,
/// a fifth of the run's CPU time. The kernel still allocates and zeroes every page, but populated by the megabyte it
/// skips the fault's entry, exit and address lookup for each: the same 650 MB took 0.27–0.30 s of system time
/// instead of 0.33–0.41 s on this class of machine. Only memory that will be written anyway should be populated:
/// the pages count towards the resident size at once. The call changes no byte; where it is not supported, it
/// fails and nothing happens (the pages fault in as before). Huge pages (``HugePages``) are no help here: fresh
/// 2 MiB pages cost a virtual machine's host more than the faults they save.
public enum PrefaultedMemory {
    /// Below this a table is not worth a system call.
    public static let minimumBytes = 1 << 20

    /// The most one system call populates (4 MiB).
    ///
    /// The call holds the process's address-space lock (for reading) until it returns, and a thread that maps or
    /// protects memory meanwhile (`malloc` growing its arena) waits for it — and so does every later reader behind
    /// that waiting writer, another thread's populate included. In one call per table, each shard's 280 MB were
    /// populated while the other shard's thread waited (about 0.1 s each, one after the other, one core idle);
    /// in 4 MiB calls the lock is let go about every millisecond and both shards' pages are zeroed at once.
    static let chunkBytes = 4 << 20

    /// Populates the whole 4 KiB pages within `bytes` bytes from `start`.
    public static func populate(_ start: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
            guard bytes >= minimumBytes else { return }
            let page = 4096
            var first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
            let end = (Int(bitPattern: start) + bytes) & ~(page - 1)
            while first < end {
                let length = min(chunkBytes, end - first)
                guard let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
                // MADV_POPULATE_WRITE (23), spelled out: older C headers do not define it. A failure (an older
                // kernel) leaves the rest to fault in as usual.
                guard madvise(aligned, length, 23) == 0 else { return }
                first += length
            }
        #endif
    }

    /// Populates the storage `array` has reserved (its whole capacity, filled or not).
    public static func populate<Element>(capacityOf array: inout [Element]) {
        let bytes = array.capacity * MemoryLayout<Element>.stride
        guard bytes >= minimumBytes else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { populate(UnsafeMutableRawPointer(base), bytes: bytes) }
        }
    }
}
