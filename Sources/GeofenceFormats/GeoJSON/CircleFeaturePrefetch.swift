import Dispatch
import GeofenceKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Circle features read ahead on every core: the bytes after the decoder's position are cut into one part per
/// core, and each part's circle features are read with ``CircleFeatureShortcut`` on a thread of its own.
///
/// It is only a cache: the decoder still walks the file in order, and where a feature starts it asks ``take(at:)``
/// for the feature read ahead at exactly that byte, else reads it itself as before. A part does not know where
/// its first feature starts, so it tries each `{` until one reads as a whole circle feature, then follows the
/// features from there (`,` then `{`); a try that lands inside a feature fails — no key of a feature matches
/// what can follow there — and a feature read ahead at a place the decoder never reaches is never used. So the
/// regions, their order, every error and warning, and every line and column are the decoder's own.
///
/// Memory holds one window of features (``partLength`` bytes per part) at a time.
struct CircleFeaturePrefetch {
    /// A feature read ahead: its region, where it ends, and how the scanner's line position moves across it.
    struct Feature {
        var start: Int
        var end: Int
        var region: Region
        /// The line feeds inside the feature.
        var lineFeeds: Int
        /// The scanner's ``JSONScanner/lineStart`` after the feature (when it has line feeds).
        var lineStart: Int
        /// The UTF-8 continuation bytes on the feature's last line (after its last line feed, or from its start).
        var continuationBytes: Int
    }

    /// The cores online.
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Files smaller than this are not worth a thread hop; the decoder reads them alone.
    static let minimumBytes = 1 << 20

    let bytes: UnsafeBufferPointer<UInt8>
    let parts: Int
    let partLength: Int
    /// The window's features, part by part (each part's storage is kept for the next window), and the next one
    /// to offer.
    private var window: [[Feature]]
    private var windowEnd = 0
    private var cursor = (part: 0, index: 0)

    /// A prefetch over `bytes` with `parts` threads, each reading `partLength` bytes per window; `nil` when there
    /// is one part or `bytes` are fewer than `minimumBytes`.
    init?(
        _ bytes: UnsafeBufferPointer<UInt8>, parts: Int = coreCount, partLength: Int = 2 << 20,
        minimumBytes: Int = minimumBytes
    ) {
        guard parts > 1, bytes.count >= minimumBytes else { return nil }
        self.bytes = bytes
        self.parts = parts
        self.partLength = partLength
        window = Array(repeating: [], count: parts)
    }

    /// The feature read ahead that starts at `offset`, if any; `offset` never goes back between calls.
    mutating func take(at offset: Int) -> Feature? {
        if offset >= windowEnd { fill(from: offset) }
        while cursor.part < parts {
            let features = window[cursor.part]
            while cursor.index < features.count, features[cursor.index].start < offset { cursor.index += 1 }
            if cursor.index < features.count {
                guard features[cursor.index].start == offset else { return nil }
                cursor.index += 1
                return features[cursor.index - 1]
            }
            cursor = (cursor.part + 1, 0)
        }
        return nil
    }

    /// Moves `scanner` (at `feature`'s start) to its end, with its line and column as if it had read it.
    static func skip(_ feature: Feature, in scanner: inout JSONScanner) {
        scanner.offset = feature.end
        if feature.lineFeeds > 0 {
            scanner.line += feature.lineFeeds
            scanner.lineStart = feature.lineStart
            scanner.continuationBytes = feature.continuationBytes
        } else {
            scanner.continuationBytes += feature.continuationBytes
        }
    }

    /// Reads the next window, `parts × partLength` bytes from `offset`, on every core.
    private mutating func fill(from offset: Int) {
        // The threads read the caller's bytes, which outlive this call; a pointer is not `Sendable`, so they get
        // its address.
        let address = Int(bitPattern: bytes.baseAddress)
        let count = bytes.count
        let partLength = self.partLength
        for part in window.indices { window[part].removeAll(keepingCapacity: true) }
        let results = Mutex(window)
        window = []
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let bytes = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: address), count: count)
            let start = offset + part * partLength
            var features = results.withLock { parts in
                defer { parts[part] = [] }
                return parts[part]
            }
            Self.read(bytes, from: start, before: min(start + partLength, bytes.count), into: &features)
            results.withLock { [features] in $0[part] = features }
        }
        window = results.withLock { parts in
            defer { parts = [] }
            return parts
        }
        windowEnd = min(offset + parts * partLength, bytes.count)
        cursor = (0, 0)
    }

    /// Appends the circle features that start in `start..<end` (and may end after it) to `features`.
    private static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int, into features: inout [Feature]
    ) {
        var next = nextBrace(in: bytes, from: start, before: end)
        while let candidate = next {
            var scanner = JSONScanner(bytes)
            scanner.offset = candidate
            scanner.lineStart = candidate
            scanner.line = 1
            guard let region = CircleFeatureShortcut.read(&scanner) else {
                next = nextBrace(in: bytes, from: candidate + 1, before: end)
                continue
            }
            features.append(
                Feature(
                    start: candidate, end: scanner.offset, region: region, lineFeeds: scanner.line - 1,
                    lineStart: scanner.lineStart, continuationBytes: scanner.continuationBytes))
            // The next feature: `,` then `{`, with whitespace around.
            scanner.skipWhitespace()
            if scanner.consume(UInt8(ascii: ",")) {
                scanner.skipWhitespace()
                if scanner.peek() == UInt8(ascii: "{") {
                    next = scanner.offset < end ? scanner.offset : nil
                    continue
                }
            }
            next = nextBrace(in: bytes, from: scanner.offset, before: end)
        }
    }

    /// The offset of the first `{` in `start..<end`.
    private static func nextBrace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int) -> Int? {
        guard start < end, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(UInt8(ascii: "{")), end - start) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
