import Foundation
import GeofenceKit
import GeofenceFormats

/// A stream of location samples to read: standard input or a file, NDJSON or CSV.
public struct SampleInput: Sendable {
    public var descriptor: Int32
    /// How errors name the input (`stdin` or the file's path).
    public var name: String
    /// The format; `nil` detects it from the first non-blank line (`{` → NDJSON, otherwise a CSV header).
    public var format: SampleFormat?
    /// Whether the first bad line ends the run (exit 65) instead of being counted and skipped.
    public var failOnBadInput: Bool
    /// Lines longer than this many bytes are rejected without being held in memory.
    public var maxLineLength: Int
    /// The most distinct devices the stream may name; samples of further devices are rejected
    /// (``SampleRejection/tooManyDevices``). The CLI sets it from the memory available (``MemoryBudget``).
    public var maxDevices = 16_777_216
    /// Called for each rejected line, as it is found.
    public var onRejection: (@Sendable (InputError) -> Void)?
    /// Where device names are interned; the simulation sets it.
    var registry = DeviceRegistry()
    /// The stream's blocks, read since ``startReading()``.
    private var reading: SampleBlockStream?
    /// How far ahead of the pipeline ``startReading()`` may read and decode: 32 MiB of lines (about 530,000
    /// CSV samples of full precision, some 75 MB with their decoded columns), about what one core decodes while
    /// the other loads a large regions file.
    static let readAheadBytes = 1 << 25

    public init(
        descriptor: Int32, name: String, format: SampleFormat? = nil, failOnBadInput: Bool = false,
        maxLineLength: Int = 1 << 20, onRejection: (@Sendable (InputError) -> Void)? = nil
    ) {
        self.descriptor = descriptor
        self.name = name
        self.format = format
        self.failOnBadInput = failOnBadInput
        self.maxLineLength = maxLineLength
        self.onRejection = onRejection
    }

    /// Starts reading the stream now, on a thread of its own, and decoding it on the cooperative pool, up to
    /// ``readAheadBytes`` until the pipeline that will run it starts: what comes first (loading the regions) then
    /// overlaps reading and decoding. Call it only for an input that one simulation reads once (a copy kept to
    /// replay the stream would miss what this has read).
    public mutating func startReading() {
        reading = blocks(readAhead: Self.readAheadBytes / SampleBlockStream.blockSize)
    }

    /// The stream's blocks for the pipeline that starts: those read since ``startReading()`` (no more read ahead
    /// from now on than the pipeline's own bound), or a stream that starts reading now.
    func blocks() -> SampleBlockStream {
        if let reading, reading.descriptor == descriptor {
            reading.stopReadingAhead()
            return reading
        }
        return blocks(readAhead: 0)
    }

    private func blocks(readAhead: Int) -> SampleBlockStream {
        SampleBlockStream(
            descriptor: descriptor, name: name, format: format, maxLineLength: maxLineLength, readAhead: readAhead)
    }

    /// Standard input.
    public static func standardInput(format: SampleFormat? = nil, failOnBadInput: Bool = false) -> SampleInput {
        SampleInput(descriptor: STDIN_FILENO, name: "stdin", format: format, failOnBadInput: failOnBadInput)
    }
}

/// An input line that ends the run under `--on-bad-input fail`.
public struct BadInputError: Error, Sendable, CustomStringConvertible {
    public var reason: SampleRejection
    public var error: InputError
    public var description: String { error.description }
}
