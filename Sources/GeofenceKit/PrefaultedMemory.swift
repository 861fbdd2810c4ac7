#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Large tables about to be written through, their pages faulted in by one system call instead of one page fault
/// per 4 KiB (Linux's `MADV_POPULATE_WRITE`, since 5.14).
///
/// Registering a million devices writes 650 MB of fresh slot tables, rows and walkers: about 166,000 page faults,
/// a fifth of the run's CPU time. The kernel still allocates and zeroes every page, but populated in one call it
/// skips the fault's entry, exit and address lookup for each: the same 650 MB took 0.27–0.30 s of system time
/// instead of 0.33–0.41 s on this class of machine. Only memory that will be written anyway should be populated:
/// the pages count towards the resident size at once. The call changes no byte; where it is not supported, it
/// fails and nothing happens (the pages fault in as before). Huge pages (``HugePages``) are no help here: fresh
/// 2 MiB pages cost a virtual machine's host more than the faults they save.
public enum PrefaultedMemory {
    /// Below this a table is not worth a system call.
    public static let minimumBytes = 1 << 20

    /// Populates the whole 4 KiB pages within `bytes` bytes from `start`.
    public static func populate(_ start: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
            guard bytes >= minimumBytes else { return }
            let page = 4096
            let first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
            let end = (Int(bitPattern: start) + bytes) & ~(page - 1)
            guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
            // MADV_POPULATE_WRITE (23), spelled out: older C headers do not define it.
            _ = madvise(aligned, end - first, 23)
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
