import GeofenceKit

/// A track point read in one pass, in the shape device exports write it, without the tokenizer:
///
/// ```xml
/// <trkpt lat="47.6445480" lon="-122.3268970">
///   <ele>4.46</ele>
///   <time>2009-10-17T18:37:26Z</time>
///   <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>
/// </trkpt>
/// ```
///
/// The general path reads such a point as a dozen tags and texts, each through the tokenizer's checks and the
/// builder's callbacks: about 6,000 instructions. Here the bytes are matched as they come and the values read
/// where they start. What it takes: `<trkpt` with exactly the attributes `lat` and `lon` (in either order, quoted,
/// no blanks around `=`) holding plain numbers in range (``GPXDecimal/parsePlain(_:at:count:)``); then, in any
/// order and with blanks between them, at most one `<ele>` holding a plain number, one `<time>` holding a plain
/// UTC time (``Timestamp/parsePlainISO8601(_:at:count:)``), and other elements (extensions, names, `<sat>`…) made
/// of plain tags (no attributes, no blanks in them) and text without references, which the builder skips; then
/// `</trkpt>` (or `/>` in place of the children). All of it ASCII, so that columns need no counting here.
///
/// It stops at the first thing it does not take, and says how far it read: nothing (the start tag is not plain;
/// the tokenizer reads the point), the start tag and the children before that thing (the point is left open, its
/// values read so far in hand, and the tokenizer goes on from there: a comment, a second `<ele>`, a value that is
/// not plain — whose warning or error the general path then gives), or the whole point. Each of these leaves the
/// tokenizer and the builder exactly where reading the same bytes the general way leaves them, so the events,
/// warnings and errors never depend on which path read what (`GPXPlainTrackPointTests`).
struct GPXPlainTrackPoint {
    /// The point with the values read so far.
    var point: GPXPoint
    var hasElevation = false
    var hasTime = false
    /// Whether `</trkpt>` (or `/>`) was read: the point is complete.
    var isClosed = false
    /// The offset after the last byte read (a closed point's end tag and the blanks after it).
    var end: Int
    /// The line feeds in the bytes read, and the offset just after the last one (for the tokenizer's cursor).
    var lineFeeds = 0
    var lastLineStart = 0

    /// Reads the track point whose `<` is at `start`, whose start tag is on line `line`; `nil` when its start tag is
    /// not plain.
    ///
    /// The tokenizer's limits hold here too, so that it gives its errors itself: a tag must end (its `>`) before
    /// `maxTagLength` bytes, and at most `maxDepth` elements may be open at once, counting the point.
    static func read(
        _ p: UnsafePointer<UInt8>, at start: Int, count n: Int, line: Int, maxTagLength: Int, maxDepth: Int
    ) -> GPXPlainTrackPoint? {
        guard maxDepth >= 1, Literal.trkptStart.matches(p, start, n), start + 6 < n, XMLTokenizer.isSpace(p[start + 6])
        else { return nil }
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
            let name = (p[index], p[index + 1], p[index + 2])
            let isLatitude = name == (UInt8(ascii: "l"), UInt8(ascii: "a"), UInt8(ascii: "t"))
            guard isLatitude || name == (UInt8(ascii: "l"), UInt8(ascii: "o"), UInt8(ascii: "n")),
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
            guard n - index >= 2, p[index] == UInt8(ascii: "<") else { return reading }
            switch p[index + 1] {
            case UInt8(ascii: "/"):
                guard Literal.trkptEnd.matches(p, index, n) else { return reading }
                reading.close(p, at: index + 8, n)
                return reading
            case UInt8(ascii: "e") where Literal.eleStart.matches(p, index, n):
                guard !reading.hasElevation, maxDepth >= 2,
                    let (value, valueEnd) = GPXDecimal.parsePlain(p, at: index + 5, count: n),
                    Literal.eleEnd.matches(p, valueEnd, n)
                else { return reading }
                reading.point.elevation = value
                reading.hasElevation = true
                index = valueEnd + 6
            case UInt8(ascii: "t") where Literal.timeStart.matches(p, index, n):
                guard !reading.hasTime, maxDepth >= 2,
                    let (time, timeEnd) = Timestamp.parsePlainISO8601(p, at: index + 6, count: n),
                    Literal.timeEnd.matches(p, timeEnd, n)
                else { return reading }
                reading.point.time = time
                reading.hasTime = true
                index = timeEnd + 7
            default:
                guard let end = reading.skipOtherChild(p, at: index, n, maxTagLength: maxTagLength, maxDepth: maxDepth)
                else { return reading }
                index = end
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

    /// Moves `index` past XML blanks, counting line feeds. Indentation's spaces go eight at a time.
    @inline(__always)
    private mutating func skipBlanks(_ p: UnsafePointer<UInt8>, _ index: inout Int, _ n: Int) {
        while index < n {
            switch p[index] {
            case 0x20:
                guard n - index >= 8 else {
                    index += 1
                    continue
                }
                // The bytes that are not spaces are the non-zero bytes of `word ^ spaces`; the first is found by
                // its trailing zero bits (and is not the first byte, which is a space).
                let others = UInt64(littleEndian: UnsafeRawPointer(p + index).loadUnaligned(as: UInt64.self))
                    ^ 0x2020_2020_2020_2020
                index += others == 0 ? 8 : others.trailingZeroBitCount >> 3
            case 0x0A:
                index += 1
                lineFeeds += 1
                lastLineStart = index
            case 0x09, 0x0D:
                index += 1
            default:
                return
            }
        }
    }

    /// Skips a child that is neither `ele` nor `time` (by its local name, as the builder matches it), when it and
    /// everything in it is plain: tags without attributes or blanks, each end tag matching its start tag, ASCII text
    /// without references; returns the offset after it, or `nil` (and reads nothing) when it is not plain. The
    /// builder skips such an element's content, so it only has to be well-formed, as the tokenizer would check.
    private mutating func skipOtherChild(
        _ p: UnsafePointer<UInt8>, at start: Int, _ n: Int, maxTagLength: Int, maxDepth: Int
    ) -> Int? {
        // The child's local name: after its first colon, unless nothing follows the colon.
        var nameEnd = start + 1
        var localStart = start + 1
        while nameEnd < n, !XMLTokenizer.endsName(p[nameEnd]) {
            if p[nameEnd] == UInt8(ascii: ":") && localStart == start + 1 { localStart = nameEnd + 1 }
            nameEnd += 1
        }
        if localStart == nameEnd { localStart = start + 1 }
        let local = UnsafeBufferPointer(start: p + localStart, count: nameEnd - localStart)
        if XMLStartTag.equals(local, "ele") || XMLStartTag.equals(local, "time") { return nil }
        let saved = (lineFeeds, lastLineStart)
        guard let end = skipPlainElement(p, at: start, n, maxTagLength: maxTagLength, depth: 2, maxDepth: maxDepth)
        else {
            (lineFeeds, lastLineStart) = saved
            return nil
        }
        return end
    }

    /// Skips the plain element at `start` (see ``skipOtherChild(_:at:_:maxTagLength:maxDepth:)``), at nesting
    /// `depth` (the point is 1); the offset after it, or `nil`.
    private mutating func skipPlainElement(
        _ p: UnsafePointer<UInt8>, at start: Int, _ n: Int, maxTagLength: Int, depth: Int, maxDepth: Int
    ) -> Int? {
        // Not `<!…` or `<?…`, which the tokenizer reads as declarations and processing instructions.
        guard depth <= maxDepth, start + 1 < n, p[start + 1] != UInt8(ascii: "!"), p[start + 1] != UInt8(ascii: "?")
        else { return nil }
        var index = start + 1
        while index < n, p[index] < 0x80, !XMLTokenizer.endsName(p[index]) { index += 1 }
        let nameLength = index - start - 1
        guard nameLength > 0, index < n else { return nil }
        if p[index] == UInt8(ascii: "/") {
            guard index + 1 < n, p[index + 1] == UInt8(ascii: ">"), index + 1 - start < maxTagLength else { return nil }
            return index + 2
        }
        guard p[index] == UInt8(ascii: ">"), index - start < maxTagLength else { return nil }
        index += 1
        // The content: text and child elements, up to the end tag.
        while true {
            while index < n, case let byte = p[index], byte != UInt8(ascii: "<") {
                guard byte < 0x80, byte != UInt8(ascii: "&") else { return nil }
                if byte == 0x0A {
                    lineFeeds += 1
                    lastLineStart = index + 1
                }
                index += 1
            }
            guard n - index >= 2 else { return nil }
            if p[index + 1] == UInt8(ascii: "/") {
                // `</name>`, the name exactly the start tag's.
                let tagEnd = index + 2 + nameLength
                guard tagEnd < n, p[tagEnd] == UInt8(ascii: ">"), tagEnd - index < maxTagLength,
                    XMLTokenizer.equalBytes(p + index + 2, p + start + 1, count: nameLength)
                else { return nil }
                return tagEnd + 1
            }
            guard let end = skipPlainElement(p, at: index, n, maxTagLength: maxTagLength, depth: depth + 1, maxDepth: maxDepth)
            else { return nil }
            index = end
        }
    }

    /// A tag of the plain shape, compared eight bytes at a time: its bytes as a little-endian word (the first byte
    /// the least significant), written out so that they are constants rather than globals initialised on first use
    /// (`GPXPlainTrackPointTests` checks each against its text).
    struct Literal {
        let word: UInt64
        let count: Int

        static let trkptStart = Literal(word: 0x7470_6B72_743C, count: 6)  // "<trkpt"
        static let trkptEnd = Literal(word: 0x3E74_706B_7274_2F3C, count: 8)  // "</trkpt>"
        static let eleStart = Literal(word: 0x003E_656C_653C, count: 5)  // "<ele>"
        static let eleEnd = Literal(word: 0x3E65_6C65_2F3C, count: 6)  // "</ele>"
        static let timeStart = Literal(word: 0x3E65_6D69_743C, count: 6)  // "<time>"
        static let timeEnd = Literal(word: 0x003E_656D_6974_2F3C, count: 7)  // "</time>"

        var mask: UInt64 { count == 8 ? ~0 : (1 << (8 * UInt64(count))) &- 1 }

        /// Whether the bytes at `index` are this tag.
        @inline(__always)
        func matches(_ p: UnsafePointer<UInt8>, _ index: Int, _ n: Int) -> Bool {
            if n - index >= 8 {
                let bytes = UInt64(littleEndian: UnsafeRawPointer(p + index).loadUnaligned(as: UInt64.self))
                return (bytes ^ word) & mask == 0
            }
            guard n - index >= count else { return false }
            for offset in 0..<count where p[index + offset] != UInt8(truncatingIfNeeded: word >> (8 * UInt64(offset))) {
                return false
            }
            return true
        }
    }
}
