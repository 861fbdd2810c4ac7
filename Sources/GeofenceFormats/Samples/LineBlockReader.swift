/// Cuts a byte stream into blocks of whole lines, each of which can be decoded apart from the others (on another
/// core), with bounded memory.
///
/// Each block is read straight into its own buffer (one that a finished block gave back to `buffers`, when there is
/// one: see ``SampleBufferPool``), behind the unfinished line the previous block left over, and cut after its last
/// line feed: the bytes are copied only for that one unfinished line. A block knows the number
/// of its first line, so errors name the lines of the stream. A line longer than `maxLineLength` bytes is
/// reported as ``LineBlock/tooLong(line:)`` and skipped without being held once it outgrows a block; a shorter
/// block holding such a line whole is the decoder's to reject (``SampleBlockDecoder``), as ``LineSplitter`` does.
public struct LineBlockReader: Sendable {
    /// How many bytes each read asks for.
    public let blockSize: Int
    public let maxLineLength: Int
    /// Where recycled buffers come from, if anywhere.
    private let buffers: SampleBufferPool?
    /// The start of a line whose end has not been read yet.
    private var carry: [UInt8] = []
    /// Whether the rest of a too-long line is being skipped.
    private var discarding = false
    private var nextLine = 1
    private var atEnd = false

    public init(blockSize: Int = 1 << 18, maxLineLength: Int = 1 << 20, buffers: SampleBufferPool? = nil) {
        self.blockSize = max(1, blockSize)
        self.maxLineLength = maxLineLength
        self.buffers = buffers
    }

    /// The next block, `nil` after the last one.
    /// - Parameter read: fills the buffer it is given with up to its count bytes and returns how many it wrote,
    ///   0 at the end of the input.
    public mutating func next(reading read: (UnsafeMutableBufferPointer<UInt8>) throws -> Int) rethrows -> LineBlock? {
        while !atEnd {
            let kept = carry.count
            var readCount = 0
            var buffer = buffers?.takeBytes() ?? []
            if buffer.isEmpty {
                buffer = try [UInt8](unsafeUninitializedCapacity: kept + blockSize) { buffer, initialized in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[..<kept]).initialize(from: carry)
                    readCount = try read(UnsafeMutableBufferPointer(rebasing: buffer[kept...]))
                    initialized = kept + readCount
                }
            } else {
                // A recycled buffer: its old bytes are overwritten; only a shortfall is zeroed first.
                let size = kept + blockSize
                if buffer.count < size {
                    buffer.append(contentsOf: repeatElement(0, count: size - buffer.count))
                } else {
                    buffer.removeLast(buffer.count - size)
                }
                readCount = try buffer.withUnsafeMutableBufferPointer { buffer in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[..<kept]).update(fromContentsOf: carry)
                    return try read(UnsafeMutableBufferPointer(rebasing: buffer[kept...]))
                }
                buffer.removeLast(blockSize - readCount)
            }
            carry = []
            guard readCount > 0 else {
                atEnd = true
                guard !discarding, !buffer.isEmpty else { return nil }
                return lines(buffer, count: 1)
            }
            if discarding {
                // The rest of a too-long line: skipped up to its line feed, if this block holds it.
                guard let lineFeed = buffer.firstIndex(of: UInt8(ascii: "\n")) else { continue }
                discarding = false
                buffer.removeSubrange(...lineFeed)
            }
            // Searched from the end, where the unfinished line (usually shorter than a line) is.
            guard let lastLineFeed = buffer.lastIndex(of: UInt8(ascii: "\n")) else {
                if buffer.count > maxLineLength {
                    discarding = true
                    nextLine += 1
                    return .tooLong(line: nextLine - 1)
                }
                carry = buffer
                continue
            }
            carry = Array(buffer[(lastLineFeed + 1)...])
            buffer.removeLast(buffer.count - lastLineFeed - 1)
            return lines(buffer, count: Self.lineFeeds(in: buffer))
        }
        return nil
    }

    private mutating func lines(_ bytes: [UInt8], count: Int) -> LineBlock {
        defer { nextLine += count }
        return .lines(bytes: bytes, firstLine: nextLine, lineCount: count)
    }

    /// Sixty-four bytes a step, in four vectors of sixteen: counting a block's lines byte by byte cost as much as
    /// decoding them, and a step of one vector spent more on the loop than on the count.
    private static func lineFeeds(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { raw in
            let lineFeed = SIMD16<UInt8>(repeating: 0x0A)
            let none = SIMD16<UInt8>(repeating: 0)
            var count = 0
            var offset = 0
            while offset + 64 <= raw.count {
                // A lane gains at most 4 a step: up to 63 steps per sum, so that no lane overflows.
                var lanes = SIMD16<UInt8>()
                let end = min(raw.count - 64, offset + 64 * 62)
                while offset <= end {
                    // Wrapping arithmetic: the offsets stay below the count (no overflow checks in the loop).
                    for vector in 0..<4 {
                        let bytes = raw.loadUnaligned(fromByteOffset: offset &+ 16 &* vector, as: SIMD16<UInt8>.self)
                        lanes &+= none.replacing(with: 1, where: bytes .== lineFeed)
                    }
                    offset &+= 64
                }
                count += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
            }
            for index in offset..<raw.count where raw[index] == 0x0A { count += 1 }
            return count
        }
    }
}
