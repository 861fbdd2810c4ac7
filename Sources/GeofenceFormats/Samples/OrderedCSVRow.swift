import GeofenceKit

/// A CSV row of a `device,lat,lon,time` file — the header feeds and `--write-files` write — read straight from a
/// block's bytes, line end included: the row's own fast path, for ``SampleBlockDecoder``.
///
/// ``SampleDecoder/plainCSVFields(line:header:)`` reads rows of any header in one pass, but it needs the line's end
/// first (a `memchr` per line), the blank-line test, and a look at the header's role of every column. A row of this
/// header has its fields in a known order: device up to the first comma, two numbers each ended by a comma, whole
/// Unix seconds ended by the line feed. Read so, the row is walked once and its line feed found on the way.
///
/// It takes only ASCII device names and whole Unix seconds (what such files hold) and answers `nil` for anything
/// else — an ISO time, a quote, a blank around a value, a carriage return not before the line feed, a bad value —
/// so that the caller reads the line the general way. Whatever it reads it reads exactly as `plainCSVFields` reads
/// the same line cut at its line feed (`OrderedCSVRowTests` compares them).
enum OrderedCSVRow: OrderedLineReader {
    /// The row starting at `start` of `bytes` (a block of whole lines), or `nil` for the general reader.
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> OrderedLine? {
        let count = bytes.count
        // The device: ASCII up to the first comma, not empty, no blank at either end, no quote, no line end.
        let nameEnd = EightBytes.endOfASCIIName(in: bytes, from: start)
        guard nameEnd > start, nameEnd < count, bytes[nameEnd] == UInt8(ascii: ","),
            !CSVFieldScanner.isBlank(bytes[start]), !CSVFieldScanner.isBlank(bytes[nameEnd - 1])
        else { return nil }
        // Two coordinates, each ended by a comma.
        let latitudeStart = nameEnd + 1
        guard latitudeStart < count, bytes[latitudeStart] != UInt8(ascii: "+"),
            let (latitude, latitudeEnd, _) = PlainDecimalParser.parseInlined(bytes, from: latitudeStart),
            latitudeEnd < count, bytes[latitudeEnd] == UInt8(ascii: ",")
        else { return nil }
        let longitudeStart = latitudeEnd + 1
        guard longitudeStart < count, bytes[longitudeStart] != UInt8(ascii: "+"),
            let (longitude, longitudeEnd, _) = PlainDecimalParser.parseInlined(bytes, from: longitudeStart),
            longitudeEnd < count, bytes[longitudeEnd] == UInt8(ascii: ",")
        else { return nil }
        // Whole Unix seconds, then the line's end: a line feed, a carriage return and a line feed, or the end.
        guard let (time, timeEnd) = Timestamp.wholeUnixSeconds(in: bytes, from: longitudeEnd + 1) else { return nil }
        var lineEnd = timeEnd
        if lineEnd < count, bytes[lineEnd] == UInt8(ascii: "\r") { lineEnd += 1 }
        guard lineEnd == count || bytes[lineEnd] == UInt8(ascii: "\n") else { return nil }
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else { return nil }
        return OrderedLine(
            name: start..<nameEnd, latitude: latitude, longitude: longitude, time: time.microseconds,
            lineEnd: lineEnd)
    }
}
