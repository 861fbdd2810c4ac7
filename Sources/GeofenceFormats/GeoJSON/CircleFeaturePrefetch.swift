import Dispatch
import Foundation
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
/// It is only a cache: the decoder still walks the file in order, and where a feature starts it asks
/// ``takeRun(from:_:)`` for the features read ahead from exactly that byte on — a run of them, as long as each
/// is followed by a comma and the next one — else reads the feature itself as before. A part does not know where
/// its first feature starts, so it tries each `{` until one reads as a whole circle feature, then follows the
/// features from there (`,` then `{`); a try that lands inside a feature fails — no key of a feature matches
/// what can follow there — and a feature read ahead at a place the decoder never reaches is never used. So the
/// regions, their order, every error and warning, and every line and column are the decoder's own.
///
/// While the decoder takes the features of one window (``partLength`` bytes per part), the next window is read on
/// other threads, so memory holds two windows of features at a time. Call ``finish()`` before the bytes go away.
struct CircleFeaturePrefetch {
    /// A feature read ahead: where it ends, and where the feature after it starts. Its region is in the part's
    /// ``RegionSlots``, at the same index.
    ///
    /// Both places are recorded with the scanner's line position there, so that the decoder moves past a run of
    /// features without reading a byte of them: the bytes were read on another core, and reading even the one
    /// after each feature again cost the decoder a cache miss per feature.
    struct Feature {
        var start: Int
        /// Just after the feature's `}`.
        var end: Place
        /// Past the `,` after the feature and the whitespace around it, where the next feature starts; `nil` when
        /// no comma follows.
        var next: Place?
        /// ``FeatureIdentifiers/hash(_:)`` of the region's id, computed here rather than on the decoder's thread.
        var idHash: UInt64
    }

    /// A place after a feature's start, and how the scanner's line position moves from the start to it.
    struct Place {
        var offset: Int
        /// The line feeds between the feature's start and here.
        var lineFeeds: Int
        /// The scanner's ``JSONScanner/lineStart`` here (when there are line feeds).
        var lineStart: Int
        /// The UTF-8 continuation bytes on the last line (after the last line feed, or from the feature's start).
        var continuationBytes: Int

        /// Where `scanner` is after reading from a feature's start to here.
        init(_ scanner: JSONScanner) {
            offset = scanner.offset
            lineFeeds = scanner.line - 1
            lineStart = scanner.lineStart
            continuationBytes = scanner.continuationBytes
        }

        /// Moves `scanner` (at the feature's start) here, with its line and column as if it had read the bytes.
        func move(_ scanner: inout JSONScanner) {
            scanner.offset = offset
            if lineFeeds > 0 {
                scanner.line += lineFeeds
                scanner.lineStart = lineStart
                scanner.continuationBytes = continuationBytes
            } else {
                scanner.continuationBytes += continuationBytes
            }
        }
    }

    /// The cores online.
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Files smaller than this are not worth a thread hop; the decoder reads them alone.
    static let minimumBytes = 1 << 20

    /// How many features' id hashes ``takeRun(from:upcoming:_:)`` announces at a time.
    static let lookahead = 16

    let bytes: UnsafeBufferPointer<UInt8>
    let parts: Int
    let partLength: Int
    /// The features of one part of a window and their regions (the storage is kept for the next window).
    struct Part: Sendable {
        var features: [Feature] = []
        let regions: RegionSlots

        /// Storage for the features of `length` bytes, reserved at once for as many as fit (a circle feature
        /// takes 100 bytes or more): grown as it filled, it was copied and its pages touched anew, a third of the
        /// read-ahead's page faults. Pages reserved and never written cost no memory.
        init(length: Int) {
            let expected = max(16, length / 100)
            features.reserveCapacity(expected)
            regions = RegionSlots(capacity: expected)
        }
    }

    /// The window's features, part by part, and the next one to offer.
    private var window: [Part]
    private var windowEnd = 0
    private var cursor = (part: 0, index: 0)
    /// The window after the current one, being read on other threads.
    private var ahead: Window?

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
        window = Self.emptyParts(parts, length: partLength)
    }

    /// Reads the features read ahead from the scanner's position on: asks `admits` whether to take each (given
    /// its region's id and the id's hash), moves its region to `take` and the scanner past it, then past the comma when the
    /// next feature was read ahead too. Stops at a feature `admits` refuses, leaving the scanner before it, or
    /// where the run ends, leaving the scanner after the last feature. Returns how many features it read; the
    /// scanner's offset never goes back between calls.
    ///
    /// Every ``lookahead`` features, `upcoming` is told the id hashes of the next ones read ahead (whether or not
    /// the run gets to them), so that ``FeatureIdentifiers`` can fetch their slots together.
    mutating func takeRun(
        from scanner: inout JSONScanner, upcoming: (UInt64) -> Void = { _ in },
        admits: (String, UInt64) -> Bool, _ take: (consuming Region) -> Void
    ) -> Int {
        var taken = 0
        var afterLast = scanner
        var atNext = true
        while atNext, findFeature(at: scanner.offset) {
            let index = cursor.index
            let feature = window[cursor.part].features[index]
            if index % Self.lookahead == 0 {
                let features = window[cursor.part].features
                for next in features[index..<min(index + Self.lookahead, features.count)] { upcoming(next.idHash) }
            }
            let regions = window[cursor.part].regions
            guard admits(regions.id(index), feature.idHash) else { break }
            take(regions.take(index))
            cursor.index += 1
            taken += 1
            let start = scanner
            feature.end.move(&scanner)
            afterLast = scanner
            if let next = feature.next {
                scanner = start
                next.move(&scanner)
            } else {
                atNext = false
            }
        }
        if taken > 0 { scanner = afterLast }
        return taken
    }

    /// Moves the cursor to the feature read ahead that starts at `offset`, if there is one.
    private mutating func findFeature(at offset: Int) -> Bool {
        if offset >= windowEnd { fill(from: offset) }
        // Subscripted in place: a copy of the array would be retained and released for every feature.
        while cursor.part < parts {
            let count = window[cursor.part].features.count
            while cursor.index < count, window[cursor.part].features[cursor.index].start < offset { cursor.index += 1 }
            if cursor.index < count { return window[cursor.part].features[cursor.index].start == offset }
            cursor = (cursor.part + 1, 0)
        }
        return false
    }

    /// Waits for the window being read ahead, if any: call it before the bytes go away.
    mutating func finish() {
        ahead?.done.wait()
        ahead = nil
    }

    /// Makes the window that holds `offset` the current one: the one read ahead when it does (waiting for it if
    /// need be), else one read now on every core. Then starts reading the window after it on other threads.
    private mutating func fill(from offset: Int) {
        // The features taken are emptied on the threads that fill their storage again (see `read`), not here:
        // the window being replaced is handed to the next one whole.
        let spare = window
        if let ahead, ahead.start <= offset, offset < ahead.end {
            ahead.done.wait()
            window = ahead.take()
            windowEnd = ahead.end
            self.ahead = nil
        } else {
            finish()
            let now = Window(
                start: offset, end: min(offset + parts * partLength, bytes.count), storage: Self.emptyParts(parts, length: partLength))
            read(now, joining: true)
            now.done.wait()
            window = now.take()
            windowEnd = now.end
        }
        cursor = (0, 0)
        guard windowEnd < bytes.count else { return }
        let next = Window(
            start: windowEnd, end: min(windowEnd + parts * partLength, bytes.count),
            storage: consume spare)
        ahead = next
        read(next, joining: false)
    }

    /// `count` parts with storage of their own for `length` bytes each.
    private static func emptyParts(_ count: Int, length: Int) -> [Part] {
        (0..<count).map { _ in Part(length: length) }
    }

    /// Reads `window`'s parts on threads of their own (the first on the calling thread when `joining`), and
    /// signals its `done` when all are read. Not on the dispatch pool: it has one thread per core and the
    /// decoder's is one of them, so the parts would be read one after the other while the decoder waits.
    private func read(_ window: Window, joining: Bool) {
        // The threads read the caller's bytes, which outlive the reading (see ``finish()``); a pointer is not
        // `Sendable`, so they get its address.
        let (address, count, partLength) = (Int(bitPattern: bytes.baseAddress), bytes.count, partLength)
        let read: @Sendable (Int) -> Void = { part in
            let bytes = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: address), count: count)
            let start = window.start + part * partLength
            // Taken out of the window, so that the features array is not shared while it is filled.
            var storage = window.parts.withLock { parts in
                defer { parts[part].features = [] }
                return parts[part]
            }
            storage.features.removeAll(keepingCapacity: true)
            storage.regions.removeAll()
            Self.read(bytes, from: start, before: min(start + partLength, window.end), into: &storage)
            window.parts.withLock { [storage] in $0[part] = storage }
            window.done.leave()
        }
        for part in 0..<parts {
            window.done.enter()
            if joining && part == 0 { continue }
            Thread { read(part) }.start()
        }
        if joining { read(0) }
    }

    /// The features of `start..<end`, part by part, filled on other threads; `done` is left when they are.
    private final class Window: Sendable {
        let start: Int
        let end: Int
        let parts: Mutex<[Part]>
        let done = DispatchGroup()

        init(start: Int, end: Int, storage: [Part]) {
            self.start = start
            self.end = end
            parts = Mutex(storage)
        }

        func take() -> [Part] {
            parts.withLock { parts in
                defer { parts = [] }
                return parts
            }
        }
    }

    /// Appends the circle features that start in `start..<end` (and may end after it) to `part`.
    private static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int, into part: inout Part
    ) {
        var deviceLists = DeviceListCache()
        var next = nextBrace(in: bytes, from: start, before: end)
        while let candidate = next {
            var scanner = JSONScanner(bytes)
            scanner.offset = candidate
            scanner.lineStart = candidate
            scanner.line = 1
            let regions = part.regions
            guard let idHash = CircleFeatureShortcut.read(&scanner, deviceLists: &deviceLists, { region in
                let hash = FeatureIdentifiers.hash(region.id)
                regions.append(consume region)
                return hash
            }) else {
                next = nextBrace(in: bytes, from: candidate + 1, before: end)
                continue
            }
            var feature = Feature(start: candidate, end: Place(scanner), idHash: idHash)
            // The next feature: `,` then `{`, with whitespace around.
            scanner.skipWhitespace()
            if scanner.consume(UInt8(ascii: ",")) {
                scanner.skipWhitespace()
                feature.next = Place(scanner)
            }
            part.features.append(feature)
            if feature.next != nil, scanner.peek() == UInt8(ascii: "{") {
                next = scanner.offset < end ? scanner.offset : nil
                continue
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
