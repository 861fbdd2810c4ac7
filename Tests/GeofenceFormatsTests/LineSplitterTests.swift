import Testing
@testable import GeofenceFormats
import GeofenceKit

@Suite struct LineSplitterTests {
    /// Splits `text` fed in chunks of `chunkSize` bytes and returns each piece as text (or "<too long>").
    static func split(_ text: String, chunkSize: Int, maxLineLength: Int = 1 << 20) -> [String] {
        var splitter = LineSplitter(maxLineLength: maxLineLength)
        let bytes = Array(text.utf8)
        var pieces: [LineSplitter.Piece] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            pieces += splitter.lines(in: Array(bytes[start..<end]))
            start = end
        }
        pieces += splitter.finish()
        return pieces.map { piece in
            switch piece {
            case .line(let bytes, let number): "\(number):" + String(decoding: bytes, as: UTF8.self)
            case .tooLong(let number): "\(number):<too long>"
            }
        }
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func linesAreTheSameWhateverTheChunkSize(chunkSize: Int) {
        let text = "a,b\r\n\nccc\nlast"
        #expect(Self.split(text, chunkSize: chunkSize) == ["1:a,b", "2:", "3:ccc", "4:last"])
    }

    @Test(arguments: [1, 4, 64])
    func aLineLongerThanTheLimitIsReportedOnceAndSkipped(chunkSize: Int) {
        let text = "ok\n" + String(repeating: "x", count: 100) + "\nafter\n"
        #expect(Self.split(text, chunkSize: chunkSize, maxLineLength: 10) == ["1:ok", "2:<too long>", "3:after"])
    }

    @Test func anUnterminatedLongLastLineIsReportedWithoutBeingHeld() {
        var splitter = LineSplitter(maxLineLength: 8)
        #expect(splitter.lines(in: Array(repeating: UInt8(ascii: "x"), count: 5)).isEmpty)
        #expect(splitter.lines(in: Array(repeating: UInt8(ascii: "x"), count: 5)) == [.tooLong(number: 1)])
        #expect(splitter.lines(in: Array(repeating: UInt8(ascii: "x"), count: 1 << 16)).isEmpty)
        #expect(splitter.finish().isEmpty)
    }

    @Test func anEmptyInputHasNoLines() {
        #expect(Self.split("", chunkSize: 4).isEmpty)
        #expect(Self.split("\n", chunkSize: 4) == ["1:"])
    }
}
