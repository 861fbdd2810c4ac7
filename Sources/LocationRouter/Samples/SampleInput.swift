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
