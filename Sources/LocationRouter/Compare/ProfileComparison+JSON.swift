import GeofenceKit

extension ProfileComparison {
    /// This comparison as one JSON object on one line, keys in a fixed order:
    /// `{"profile":…,"baseline":…,"matchWindowSeconds":…,"enter":T,"exit":T,"dwell":T,"total":T,`
    /// `"state":{"baseline":…,"profile":…},"failed":{"baseline":…,"profile":…,"byCode":[{"code":…,"baseline":…,"profile":…}]},`
    /// `"visit":{"baseline":…,"profile":…},"delivery":{"events":…,"delaySeconds":{…}}}` (`delivery`: the profile's
    /// own delivery delays, `time − detectedAt`)
    /// where T is `{"baseline":…,"profile":…,"matched":…,"missed":…,"added":…,"delayed":…,"early":…,`
    /// `"delaySeconds":{"mean":…,"min":…,"p50":…,"p90":…,"p99":…,"max":…}}` (delays `null` when nothing matched).
    public var json: String { jsonObject + "\n" }

    /// The comparisons as one JSON array on one line.
    public static func json(_ comparisons: [ProfileComparison]) -> String {
        "[" + comparisons.map(\.jsonObject).joined(separator: ",") + "]\n"
    }

    var jsonObject: String {
        func object(_ pairs: [(String, String)]) -> String {
            "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return Self.number(value)
        }
        func delays(_ d: Delays) -> String {
            object([
                ("mean", number(d.mean)), ("min", number(d.min)), ("p50", number(d.p50)),
                ("p90", number(d.p90)), ("p99", number(d.p99)), ("max", number(d.max)),
            ])
        }
        func tally(_ t: Tally) -> String {
            let d = t.delays
            return object([
                ("baseline", String(t.baseline)),
                ("profile", String(t.profile)),
                ("matched", String(t.matched)),
                ("missed", String(t.missed)),
                ("added", String(t.added)),
                ("delayed", String(t.delayed)),
                ("early", String(t.early)),
                ("delaySeconds", object([
                    ("mean", number(d.mean)), ("min", number(d.min)), ("p50", number(d.p50)),
                    ("p90", number(d.p90)), ("p99", number(d.p99)), ("max", number(d.max)),
                ])),
            ])
        }
        let codes = failedByCode.map {
            object([("code", String($0.code)), ("baseline", String($0.baseline)), ("profile", String($0.profile))])
        }
        return object([
            ("profile", EventEncoder.jsonLiteral(profile)),
            ("baseline", EventEncoder.jsonLiteral(baselineName)),
            ("matchWindowSeconds", number(matchWindow)),
            ("enter", tally(enter)),
            ("exit", tally(exit)),
            ("dwell", tally(dwell)),
            ("total", tally(total)),
            ("state", object([("baseline", String(state.baseline)), ("profile", String(state.profile))])),
            ("failed", object([
                ("baseline", String(failed.baseline)),
                ("profile", String(failed.profile)),
                ("byCode", "[" + codes.joined(separator: ",") + "]"),
            ])),
            ("visit", object([("baseline", String(visit.baseline)), ("profile", String(visit.profile))])),
            ("delivery", object([("events", String(deliveredLate)), ("delaySeconds", delays(delivery))])),
        ])
    }

    /// A number with at most three decimals, without a trailing `.0` on whole numbers (as in the run report).
    static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
