import Dispatch
import Foundation

/// Work whose elements are computed independently, spread over every core: building a catalog of a million
/// regions (or answering a hundred thousand devices' first choices) is work the run waits for before its first
/// sample, so it should take every core the run will.
public enum ParallelFill {
    /// `[element(0), element(1), …, element(count - 1)]`, each computed once, on every core in contiguous parts.
    /// The same array as a serial `map`, whatever the number of cores.
    /// - Parameter smallestPart: elements per part below which one thread does it all (threads cost more than they
    ///   save on less work; the default suits elements of a microsecond or less).
    public static func array<Element>(
        count: Int, smallestPart: Int = 16_384, _ element: @Sendable (Int) -> Element
    ) -> [Element] {
        guard count > 0 else { return [] }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            // A pointer is not `Sendable`: the parts get its address, and each writes only its own range.
            let address = Int(bitPattern: buffer.baseAddress)
            forEachPart(count: count, smallestPart: smallestPart) { part in
                let elements = UnsafeMutablePointer<Element>(bitPattern: address)!
                for i in part { (elements + i).initialize(to: element(i)) }
            }
            initialized = count
        }
    }

    /// Calls `body` once for each of a few contiguous parts of `0..<count`, on every core at once; the parts
    /// cover the range exactly once. For work that keeps buffers of its own per part.
    public static func forEachPart(count: Int, smallestPart: Int = 16_384, _ body: @Sendable (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // A few parts per core, so that a core slowed by other work does not hold up the rest.
        let parts = max(1, min(cores * 4, count / smallestPart))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            body(count * part / parts..<count * (part + 1) / parts)
        }
    }
}
