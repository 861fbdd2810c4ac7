import GeofenceKit

/// A sample line that could not be decoded: the reason to count it under, and where and what exactly.
///
/// The ``InputError`` carries the line number the caller passed, the column when known, and the field
/// (`lat`, `time`, …) when the problem belongs to one; the caller attaches the file name.

public struct SampleDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: SampleRejection
    public var error: InputError

    public init(reason: SampleRejection, error: InputError) {
        self.reason = reason
        self.error = error
    }

    public var description: String { error.description }
}
