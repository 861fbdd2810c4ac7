import Foundation

/// The stop-detection model of `--visits`: when a device counts as visiting a place, like Core Location's visit
/// service (`startMonitoringVisits`, `CLVisit`).
///
/// A device is *at a place* while its samples stay within `radius` metres of the first sample of the stay (the
/// anchor). Once it has been there `minimumStay` seconds, an `arrival` is reported — at the sample that completes
/// the stay, with the anchor's position and time as the arrival. The first sample beyond `radius` of the anchor
/// ends the stay: a `departure` (if an arrival was reported), with the stay's duration, and that sample anchors
/// the next stay. Apple publishes neither threshold: both defaults are assumptions.
public struct VisitSettings: Sendable, Equatable {
    /// Metres from the anchor within which the device is still at the place.
    public var radius: Double
    /// Seconds at the place before it counts as a visit.
    public var minimumStay: Double

    public init(radius: Double = 100, minimumStay: Double = 300) {
        self.radius = radius
        self.minimumStay = minimumStay
    }
}

/// Whether a `visit` event is the start or the end of a stay.
public enum VisitPhase: UInt8, Sendable, CustomStringConvertible {
    case arrival, departure

    public var description: String {
        switch self {
        case .arrival: "arrival"
        case .departure: "departure"
        }
    }
}

/// Per-device stop detection (see ``VisitSettings``): a pure state machine fed with each device's samples in order.
///
/// Rows are the monitor's device rows; the tables exist only when visits are on (32 bytes per device).
struct VisitDetector: Sendable {
    let settings: VisitSettings
    private var anchorLatitude: [Double] = []
    private var anchorLongitude: [Double] = []
    private var anchorTime: [Int64] = []
    /// When the current stay's arrival was reported; `.min`: not (yet) a visit.
    private var arrival: [Int64] = []
    private static let none: Int64 = .min

    init(settings: VisitSettings) {
        self.settings = settings
    }

    /// Takes one sample of the device in `row` and appends the `visit` event it completes, if any.
    mutating func observe(
        device: Int32, row: Int, latitude: Double, longitude: Double, time: Int64, into events: inout [GeofenceEvent]
    ) {
        if row >= anchorTime.count {
            let missing = row + 1 - anchorTime.count
            anchorLatitude.append(contentsOf: repeatElement(0, count: missing))
            anchorLongitude.append(contentsOf: repeatElement(0, count: missing))
            anchorTime.append(contentsOf: repeatElement(Self.none, count: missing))
            arrival.append(contentsOf: repeatElement(Self.none, count: missing))
        }
        guard anchorTime[row] != Self.none else { return anchor(row, latitude, longitude, time) }
        let distance = Self.distance(anchorLatitude[row], anchorLongitude[row], latitude, longitude)
        if distance <= settings.radius {
            guard arrival[row] == Self.none, Double(time - anchorTime[row]) >= settings.minimumStay * 1e6 else { return }
            arrival[row] = anchorTime[row]
            events.append(visit(.arrival, device: device, row: row, time: time))
            return
        }
        if arrival[row] != Self.none { events.append(visit(.departure, device: device, row: row, time: time)) }
        anchor(row, latitude, longitude, time)
    }

    /// A `visit` event of the device's current stay: at the place (the anchor), since its arrival.
    private func visit(_ kind: VisitPhase, device: Int32, row: Int, time: Int64) -> GeofenceEvent {
        var event = GeofenceEvent(
            device: device, region: -1, kind: .visit, time: Timestamp(microseconds: time),
            latitude: anchorLatitude[row], longitude: anchorLongitude[row])
        event.visit = kind
        event.arrival = Timestamp(microseconds: arrival[row])
        return event
    }

    private mutating func anchor(_ row: Int, _ latitude: Double, _ longitude: Double, _ time: Int64) {
        anchorLatitude[row] = latitude
        anchorLongitude[row] = longitude
        anchorTime[row] = time
        arrival[row] = Self.none
    }

    /// Metres between two positions on the sphere (haversine): a stay's radius is a coarse threshold, so the
    /// sphere's 0.5 % error against the ellipsoid does not matter here.
    static func distance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (latitude2 - latitude1) * radians
        var dLongitude = (longitude2 - longitude1).truncatingRemainder(dividingBy: 360)
        if dLongitude > 180 { dLongitude -= 360 } else if dLongitude < -180 { dLongitude += 360 }
        dLongitude *= radians
        let a = sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * 6_371_008.8 * asin(min(1, a.squareRoot()))
    }
}
