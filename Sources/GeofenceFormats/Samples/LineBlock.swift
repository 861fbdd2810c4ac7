/// A piece of a sample stream as ``LineBlockReader`` cuts it: whole lines to decode on their own, or a line too
/// long to hold.
public enum LineBlock: Sendable, Equatable {
    /// `lineCount` whole lines, the first of them line `firstLine` of the stream (1-based). Every line ends with a
    /// line feed but the input's last, when the input does not end with one.
    case lines(bytes: [UInt8], firstLine: Int, lineCount: Int)
    /// Line `line` is longer than the limit: it was skipped without being held in memory.
    case tooLong(line: Int)
}
