import Testing

@testable import GeofenceFormats
import GeofenceKit

/// Blocks of whole lines hold the lines, numbers and too-long lines that ``LineSplitter`` gives, whatever the reads.
@Suite struct LineBlockReaderTests {
    /// The lines of `text` as the reader's blocks hold them, each as `number:text` (or `number:<too long>`), read
    /// in pieces of `readSize` bytes at most.
    /// With `recycling`, each block's bytes go back to the reader once read, followed by bytes of no line (a
    /// recycled buffer holds what its last block left, and may be longer or shorter than the next block needs).
    static func lines(
        _ text: String, readSize: Int, blockSize: Int = 16, maxLineLength: Int = 1 << 20, recycling: Bool = false
    ) -> [String] {
        let buffers = recycling ? SampleBufferPool() : nil
        var reader = LineBlockReader(blockSize: blockSize, maxLineLength: maxLineLength, buffers: buffers)
        let bytes = Array(text.utf8)
        var offset = 0
        var lines: [String] = []
        while let block = reader.next(reading: { buffer in
            let count = min(buffer.count, readSize, bytes.count - offset)
            for index in 0..<count { buffer[index] = bytes[offset + index] }
            offset += count
            return count
        }) {
            switch block {
            case .tooLong(let line):
                lines.append("\(line):<too long>")
            case .lines(let bytes, let firstLine, let lineCount):
                var blockLines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                if bytes.last == UInt8(ascii: "\n") { blockLines.removeLast() }
                #expect(blockLines.count == lineCount)
                for (k, line) in blockLines.enumerated() {
                    let line = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
                    lines.append(
                        line.count > maxLineLength
                            ? "\(firstLine + k):<too long>" : "\(firstLine + k):" + String(decoding: line, as: UTF8.self))
                }
                let leftovers = Array(repeating: UInt8(ascii: "#"), count: lines.count % 3 * 5)
                buffers?.recycle(DecodedSampleBlock(bytes: bytes + leftovers, capacity: 0))
            }
        }
        return lines
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func linesAreTheSplittersWhateverTheReads(readSize: Int) {
        let texts = ["a,b\r\n\nccc\nlast", "", "\n", "one line\n", "x\ny\n\n\nz", String(repeating: "0123456789\n", count: 40)]
        for text in texts {
            for blockSize in [1, 5, 16, 4096] {
                #expect(
                    Self.lines(text, readSize: readSize, blockSize: blockSize)
                        == LineSplitterTests.split(text, chunkSize: readSize), "\(text.debugDescription) \(blockSize)")
            }
        }
    }

    /// A block's line count is exact however densely its lines fall: blocks of nothing but line feeds (and of
    /// lines of one byte), of lengths around the counter's steps of 64 bytes and its 63 steps per sum.
    @Test(arguments: [1, 63, 64, 65, 127, 4031, 4032, 4033, 4095, 8064, 8065, 100_000])
    func lineCountsOfDenseBlocks(size: Int) {
        for line in ["", "x"] {
            let text = String(repeating: line + "\n", count: size)
            let lines = Self.lines(text, readSize: text.utf8.count, blockSize: 1 << 18)
            #expect(lines.count == size && lines.last == "\(size):\(line)")
        }
    }

    @Test(arguments: [1, 3, 1000])
    func recycledBuffersGiveTheSameLines(readSize: Int) {
        let texts = ["a,b\r\n\nccc\nlast", "\n", "x\ny\n\n\nz", String(repeating: "0123456789\n", count: 40)]
        for text in texts {
            for blockSize in [1, 5, 16, 4096] {
                #expect(
                    Self.lines(text, readSize: readSize, blockSize: blockSize, recycling: true)
                        == Self.lines(text, readSize: readSize, blockSize: blockSize), "\(text.debugDescription) \(blockSize)")
            }
        }
        let long = "ok\n" + String(repeating: "x", count: 100) + "\nafter\n" + String(repeating: "y", count: 30)
        #expect(
            Self.lines(long, readSize: 4, blockSize: 16, maxLineLength: 10, recycling: true)
                == ["1:ok", "2:<too long>", "3:after", "4:<too long>"])
    }

    @Test(arguments: [1, 4, 64])
    func aLineLongerThanTheLimitIsReportedOnceAndSkipped(readSize: Int) {
        let text = "ok\n" + String(repeating: "x", count: 100) + "\nafter\n" + String(repeating: "y", count: 30)
        for blockSize in [4, 16, 256] {
            #expect(
                Self.lines(text, readSize: readSize, blockSize: blockSize, maxLineLength: 10)
                    == ["1:ok", "2:<too long>", "3:after", "4:<too long>"])
        }
    }

    @Test func anUnterminatedLongLineIsNotHeld() {
        var reader = LineBlockReader(blockSize: 8, maxLineLength: 20)
        var served = 0
        var largest = 0
        while let block = reader.next(reading: { buffer in
            largest = max(largest, buffer.count)
            guard served < 1 << 16 else { return 0 }
            for index in buffer.indices { buffer[index] = UInt8(ascii: "x") }
            served += buffer.count
            return buffer.count
        }) {
            #expect(block == .tooLong(line: 1))
        }
        // The line outgrew the limit once; the rest was skipped a block at a time.
        #expect(largest <= 20 + 8)
    }
}
