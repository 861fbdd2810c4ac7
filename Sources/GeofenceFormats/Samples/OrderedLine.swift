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
