import GeofenceKit
import GeofenceFormats

/// An event as the scorer compares it: which device, which region, what kind, when. Any system's events that
/// carry `device`, `region`, `event` and `time` can be scored.
public struct ScoredEvent: Sendable, Hashable {
    public var device: String
    public var region: String
    public var kind: EventKind
    public var time: Timestamp
    /// When the platform decided the event, for an event delivered late (the events' `detectedAt`).
    public var detectedAt: Timestamp?

    public init(device: String, region: String, kind: EventKind, time: Timestamp, detectedAt: Timestamp? = nil) {
        self.device = device
        self.region = region
        self.kind = kind
        self.time = time
        self.detectedAt = detectedAt
    }

    /// `{"device":…,"region":…,"event":…,"time":…}`, as in the NDJSON events.
    public var json: String {
        "{\"device\":\(EventEncoder.jsonLiteral(device)),\"region\":\(EventEncoder.jsonLiteral(region)),"
            + "\"event\":\"\(kind)\",\"time\":\"\(time.iso8601)\"}"
    }

    /// The event of one JSON object, or `nil` for a kind the scorer does not match (`dwell`, `state`, `failed`,
    /// or a kind it does not know).
    ///
    /// `device` and `region` are strings or numbers (written as they are), `event` a string and `time` an ISO-8601
    /// string or Unix seconds as a number. Other keys are ignored.
    /// - Throws: an ``InputError`` at the offending value when a field is missing or of the wrong type.
    public init?(object: JSONValue) throws(InputError) {
        guard case .object = object.kind else {
            throw object.error("expected an event object, found \(object.typeDescription)", path: "")
        }
        guard let kindValue = object["event"] else { throw object.error("missing", path: "event") }
        let kindName = try kindValue.string(path: "event")
        guard let kind = EventKind.allCases.first(where: { $0.description == kindName }), kind == .enter || kind == .exit
        else { return nil }
        self.kind = kind
        device = try Self.name(object, "device")
        region = try Self.name(object, "region")
        guard let time = object["time"] else { throw object.error("missing", path: "time") }
        self.time = try Self.timestamp(time, path: "time")
        if let detected = object["detectedAt"], detected.kind != .null {
            detectedAt = try Self.timestamp(detected, path: "detectedAt")
        }
    }

    /// An ISO-8601 string or Unix seconds.
    private static func timestamp(_ value: JSONValue, path: String) throws(InputError) -> Timestamp {
        switch value.kind {
        case .string(let text):
            do throws(InputError) {
                return try Timestamp.parseISO8601(text)
            } catch {
                throw value.error(error.message, path: path)
            }
        case .number(_, let text):
            do throws(InputError) {
                return try Timestamp.parseUnixSeconds(text)
            } catch {
                throw value.error(error.message, path: path)
            }
        default:
            throw value.error("expected an ISO-8601 string or Unix seconds, found \(value.typeDescription)", path: path)
        }
    }

    private static func name(_ object: JSONValue, _ key: String) throws(InputError) -> String {
        guard let value = object[key] else { throw object.error("missing", path: key) }
        switch value.kind {
        case .string(let text) where !text.isEmpty: return text
        case .number(_, let text): return text
        default: throw value.error("expected a non-empty string or a number, found \(value.typeDescription)", path: key)
        }
    }
}
