/// A sample line of the shape feeds write, read straight from a block's bytes with its line end by ``OrderedCSVRow``
/// or ``OrderedNDJSONLine``: what ``SampleBlockDecoder`` keeps of it.
struct OrderedLine {
    /// The device's name: where it is in the bytes.
    var name: Range<Int>
    var latitude: Double
    var longitude: Double
    /// Microseconds since the Unix epoch.
    var time: Int64
    /// Where the line ends: the offset of its line feed, or the end of the bytes. The next line starts after it.
    var lineEnd: Int
}

/// A reader of the lines of one ordered shape (``OrderedCSVRow``, ``OrderedNDJSONLine``), for
/// ``SampleBlockDecoder``'s loop over runs of such lines.
protocol OrderedLineReader {
    /// The line starting at `start` of `bytes` (a block of whole lines), or `nil` for the general reader.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> OrderedLine?
}
