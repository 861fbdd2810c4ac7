/// Why a location sample was refused; the report counts rejections per reason (the raw values are its keys).
public enum SampleRejection: String, Sendable, CaseIterable {
    /// Not a JSON object or CSV row at all: bad syntax, duplicate keys, a field of a type no reading can fix.
    case malformed
    /// A required field (`device`, `lat`, `lon`, `time`) is absent, `null` or empty.
    case missingField
    /// `lat` or `lon` is not a finite number in range.
    case invalidCoordinate
    /// `time` is neither a valid ISO-8601 time nor Unix seconds within years 0000–9999.
    case invalidTime
    /// `accuracy` is not a finite number ≥ 0.
    case invalidAccuracy
    /// The line exceeds the reader's length limit (decided by the line reader, before decoding).
    case lineTooLong
    /// The sample is older than the previous sample of the same device (decided downstream, per device).
    case outOfOrder
    /// The sample names a new device past the stream's device limit (what the machine's memory can hold).
    case tooManyDevices
}
