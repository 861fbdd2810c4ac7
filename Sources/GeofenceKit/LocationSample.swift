/// One decoded location report of one device, as read from a sample file or stream.
public struct LocationSample: Sendable, Hashable {
    public var device: String
    public var coordinate: Coordinate
    public var time: Timestamp
    /// Horizontal accuracy in metres, when the input gives one.
    public var accuracy: Double?

    public init(device: String, coordinate: Coordinate, time: Timestamp, accuracy: Double? = nil) {
        self.device = device
        self.coordinate = coordinate
        self.time = time
        self.accuracy = accuracy
    }
}
