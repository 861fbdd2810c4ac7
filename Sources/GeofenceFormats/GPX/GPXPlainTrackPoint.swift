import GeofenceKit

/// A track point read in one pass, in the shape device exports write it, without the tokenizer:
///
/// ```xml
/// <trkpt lat="47.6445480" lon="-122.3268970">
///   <ele>4.46</ele>
///   <time>2009-10-17T18:37:26Z</time>
/// </trkpt>
/// ```
///
/// The general path reads such a point as five tags and three texts, each through the tokenizer's checks and the
/// builder's callbacks: about 6,300 instructions. Here the bytes are matched as they come and the three values
/// read where they start. What it takes: `<trkpt` with exactly the attributes `lat` and `lon` (in either order,
/// quoted, no blanks around `=`) holding plain numbers in range (``GPXDecimal/parsePlain(_:at:count:)``); then, in
/// any order, at most one `<ele>` holding a plain number and one `<time>` holding a plain UTC time
/// (``Timestamp/parsePlainISO8601(_:at:count:)``), with whitespace between them; then `</trkpt>` (or `/>` in place
/// of the children). All of it ASCII, so that columns need no counting here.
///
/// It stops at the first thing it does not take, and says how far it read: nothing (the start tag is not plain;
/// the tokenizer reads the point), the start tag and the children before that thing (the point is left open, its
/// values read so far in hand, and the tokenizer goes on from there: an `<extensions>`, a second `<ele>`, a value
/// that is not plain — whose warning or error the general path then gives), or the whole point. Each of these
/// leaves the tokenizer and the builder exactly where reading the same bytes the general way leaves them, so the
/// events, warnings and errors never depend on which path read what (`GPXPlainTrackPointTests`).
struct GPXPlainTrackPoint {
    /// The point with the values read so far.
    var point: GPXPoint
    var hasElevation = false
    var hasTime = false
    /// Whether `</trkpt>` (or `/>`) was read: the point is complete.
    var isClosed = false
    /// The offset after the last byte read (a closed point's end tag and the whitespace after it).
    var end: Int
    /// The line feeds in the bytes read, and the offset just after the last one (for the tokenizer's cursor).
    var lineFeeds = 0
    var lastLineStart = 0

    /// Reads the track point whose `<` is at `start`, whose start tag is on line `line`; `nil` when its start tag is
    /// not plain or does not end before `start + maxTagLength` (the tokenizer's limit, whose error it then gives).
    static func read(
        _ p: UnsafePointer<UInt8>, at start: Int, count n: Int, line: Int, maxTagLength: Int
    ) -> GPXPlainTrackPoint? {
        guard matches("<trkpt", p, start, n), start + 6 < n, XMLTokenizer.isSpace(p[start + 6]) else { return nil }
        var reading = GPXPlainTrackPoint(point: GPXPoint(latitude: 0, longitude: 0, line: line), end: start)
        var index = start + 6
        var latitude: Double?
        var longitude: Double?
        var selfClosing = false
        // The attributes, each after at least one blank, until `>` or `/>`.
        while true {
            let blanksStart = index
            reading.skipBlanks(p, &index, n)
            guard index < n else { return nil }
            if p[index] == UInt8(ascii: ">") { break }
            if p[index] == UInt8(ascii: "/") {
                guard index + 1 < n, p[index + 1] == UInt8(ascii: ">") else { return nil }
                selfClosing = true
                index += 1
                break
            }
            guard index > blanksStart, index + 5 < n, p[index + 3] == UInt8(ascii: "="),
                case let quote = p[index + 4], quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
            else { return nil }
            let isLatitude = matches("lat", p, index, n)
            guard isLatitude || matches("lon", p, index, n),
                (isLatitude ? latitude : longitude) == nil,
                let (value, valueEnd) = GPXDecimal.parsePlain(p, at: index + 5, count: n),
                valueEnd < n, p[valueEnd] == quote,
                value >= (isLatitude ? -90 : -180) && value <= (isLatitude ? 90 : 180)
            else { return nil }
            if isLatitude { latitude = value } else { longitude = value }
            index = valueEnd + 1
        }
        guard let latitude, let longitude, index - start < maxTagLength else { return nil }
        reading.point.latitude = latitude
        reading.point.longitude = longitude
        index += 1  // the `>`
        reading.end = index
        if selfClosing {
            reading.close(p, at: index, n)
            return reading
        }
        // The children, each read whole or not at all.
        while true {
            reading.skipBlanks(p, &index, n)
            reading.end = index
            guard index < n, p[index] == UInt8(ascii: "<") else { return reading }
            if matches("</trkpt>", p, index, n) {
                reading.close(p, at: index + 8, n)
                return reading
            } else if !reading.hasElevation && matches("<ele>", p, index, n) {
                guard let (value, valueEnd) = GPXDecimal.parsePlain(p, at: index + 5, count: n),
                    matches("</ele>", p, valueEnd, n)
                else { return reading }
                reading.point.elevation = value
                reading.hasElevation = true
                index = valueEnd + 6
            } else if !reading.hasTime && matches("<time>", p, index, n) {
                guard let (time, timeEnd) = Timestamp.parsePlainISO8601(p, at: index + 6, count: n),
                    matches("</time>", p, timeEnd, n)
                else { return reading }
                reading.point.time = time
                reading.hasTime = true
                index = timeEnd + 7
            } else {
                return reading
            }
        }
    }

    /// Marks the point complete at `index`, just after its end, and reads the blanks after it too: the tokenizer
    /// would pass them on as text, which the builder ignores between points.
    private mutating func close(_ p: UnsafePointer<UInt8>, at index: Int, _ n: Int) {
        var index = index
        isClosed = true
        skipBlanks(p, &index, n)
        end = index
    }

    /// Moves `index` past XML blanks, counting line feeds.
    @inline(__always)
    private mutating func skipBlanks(_ p: UnsafePointer<UInt8>, _ index: inout Int, _ n: Int) {
        while index < n, XMLTokenizer.isSpace(p[index]) {
            if p[index] == 0x0A {
                lineFeeds += 1
                lastLineStart = index + 1
            }
            index += 1
        }
    }

    /// Whether the bytes at `index` are `literal`.
    @inline(__always)
    private static func matches(_ literal: StaticString, _ p: UnsafePointer<UInt8>, _ index: Int, _ n: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        return n - index >= length && XMLTokenizer.equalBytes(p + index, literal.utf8Start, count: length)
    }
}
