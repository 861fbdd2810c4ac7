import GeofenceKit

extension SampleDecoder {
    /// A CSV row of the common shape read in one pass, or `nil` for the general reader (``csvFields``) to read.
    ///
    /// The common shape: every column of the header present, unquoted, with no blanks around the values; numbers
    /// that ``PlainDecimalParser`` reads; Unix seconds of 1 to 12 digits (or a time ``parseTime`` reads); valid
    /// values. Splitting a row into fields and then reading each field walked its bytes twice and kept every
    /// field's bounds; here each number is read where it starts and its end is the next comma. Anything else — a
    /// quote, a blank, a missing or extra field, a bad value — answers `nil`, and the general reader then decodes the
    /// row or names what is wrong with it, so a row this reads gives exactly the fields the general reader gives.
    /// - Parameter line: the row, without its line feed and carriage return.
    static func plainCSVFields(line: UnsafeBufferPointer<UInt8>, header: CSVSampleHeader) -> SampleFields? {
        let count = line.count
        var device = 0..<0
        var latitude = 0.0
        var longitude = 0.0
        var time: Timestamp?
        var accuracy: Double?
        var offset = 0
        let lastColumn = header.roles.count - 1
        for (column, role) in header.roles.enumerated() {
            let end: Int
            switch role {
            case .latitude, .longitude:
                guard offset < count, line[offset] != UInt8(ascii: "+"),
                    let (value, numberEnd, _) = PlainDecimalParser.parse(line, from: offset)
                else { return nil }
                if role == .latitude { latitude = value } else { longitude = value }
                end = numberEnd
            case .accuracy:
                if offset == count || line[offset] == UInt8(ascii: ",") {
                    end = offset  // empty: no accuracy
                } else {
                    guard line[offset] != UInt8(ascii: "+"),
                        let (value, numberEnd, _) = PlainDecimalParser.parse(line, from: offset), value >= 0
                    else { return nil }
                    accuracy = value
                    end = numberEnd
                }
            case .time:
                guard let (value, timeEnd) = plainCSVTime(line, from: offset) else { return nil }
                time = value
                end = timeEnd
            case .device:
                guard let span = plainCSVField(line, from: offset), !span.isEmpty,
                    isValidUTF8(UnsafeBufferPointer(rebasing: line[span]))
                else { return nil }
                device = span
                end = span.upperBound
            case .ignored:
                guard let span = plainCSVField(line, from: offset) else { return nil }
                end = span.upperBound
            }
            // Every column but the last ends at a comma, the last at the end of the row.
            if column == lastColumn {
                guard end == count else { return nil }
            } else {
                guard end < count, line[end] == UInt8(ascii: ",") else { return nil }
                offset = end + 1
            }
        }
        guard let time, let coordinate = try? Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        return SampleFields(device: .span(device), coordinate: coordinate, time: time, accuracy: accuracy)
    }

    /// The unquoted field starting at `start`, up to the next comma or the end of the row; `nil` when a quote
    /// comes first or a blank starts or ends it (the general reader unquotes and trims such fields).
    private static func plainCSVField(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>? {
        let end = EightBytes.firstIndex(of: UInt8(ascii: ","), or: UInt8(ascii: "\""), in: line, from: start)
        guard end == line.count || line[end] == UInt8(ascii: ",") else { return nil }
        if end > start, CSVFieldScanner.isBlank(line[start]) || CSVFieldScanner.isBlank(line[end - 1]) { return nil }
        return start..<end
    }

    /// The time field starting at `start` and where it ends: whole Unix seconds read in place
    /// (``Timestamp/wholeUnixSeconds(in:from:)``), any other plain field through ``parseTime(_:)``; `nil` when
    /// the field is not plain or not a valid time.
    private static func plainCSVTime(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> (Timestamp, Int)? {
        if let (time, end) = Timestamp.wholeUnixSeconds(in: line, from: start),
            end == line.count || line[end] == UInt8(ascii: ",")
        {
            return (time, end)
        }
        guard let span = plainCSVField(line, from: start), !span.isEmpty,
            let time = try? parseTime(UnsafeBufferPointer(rebasing: line[span]))
        else { return nil }
        return (time, span.upperBound)
    }
}
