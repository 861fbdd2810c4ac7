import Foundation

/// One key of the JSON report, with what else hangs on it: the threshold metrics under it and its row of the
/// summary table.
///
/// ``RunReport/fields`` lists them in report order; the JSON report (``RunReport/json``), the metric names a
/// threshold may test (``ThresholdMetric/known``) and the summary (``RunReport/summaryRows(eventsDestination:)``)
/// are all read from that one table, so adding a metric is adding one entry.
struct ReportField: Sendable {
    /// The JSON members this field writes (usually one, `("devices", "200")`); empty to leave it out.
    let json: @Sendable (RunReport) -> [(String, String)]
    /// The threshold metrics it holds, grouped by path prefix (a group without members is a metric itself).
    var metrics: [(prefix: String, members: [String])] = []
    /// The value of the metric at `path` (a full dotted path of ``metrics``), as computed; nil when absent.
    var value: (@Sendable (RunReport, String) -> Double?)?
    /// Whether thresholds see the value unrounded (ratios such as `score.recall`), not to three decimals.
    var exact = false
    /// Its row of the summary table, if any.
    var summary: SummaryRow?

    /// A row of the summary table: rows are printed by ``rank`` (the table's order is the report's, and the summary
    /// reads better in an order of its own).
    struct SummaryRow: Sendable {
        let rank: Int
        let label: String
        /// The row's text, nil to leave the row out; the second argument is where events went.
        let text: @Sendable (RunReport, String?) -> String?
    }

    /// A field of one JSON member.
    init(_ key: String, json: @escaping @Sendable (RunReport) -> String?) {
        self.json = { report in json(report).map { [(key, $0)] } ?? [] }
    }

    /// Several members at once (the origin's, the recording's).
    init(members: @escaping @Sendable (RunReport) -> [(String, String)]) {
        self.json = members
    }

    /// A metric that is one number, written as `json` writes it and read by `value`.
    static func count(_ key: String, _ value: @escaping @Sendable (RunReport) -> Int) -> ReportField {
        var field = ReportField(key) { String(value($0)) }
        field.metrics = [(key, [])]
        field.value = { report, _ in Double(value(report)) }
        return field
    }

    /// A metric that is a measured number (three decimals in JSON, `null` when not finite).
    static func measure(_ key: String, _ value: @escaping @Sendable (RunReport) -> Double) -> ReportField {
        var field = ReportField(key) { number(value($0)) }
        field.metrics = [(key, [])]
        field.value = { report, _ in value(report) }
        return field
    }

    /// A metric group written as an object of named counts (`events.enter`), 0 for a name not counted.
    static func counts(
        _ key: String, _ names: [String], _ counts: @escaping @Sendable (RunReport) -> [String: Int]
    ) -> ReportField {
        var field = ReportField(key) { report in
            let values = counts(report)
            return object(names.map { ($0, String(values[$0] ?? 0)) })
        }
        field.metrics = [(key, names)]
        field.value = { report, path in Double(counts(report)[String(path.dropFirst(key.count + 1))] ?? 0) }
        return field
    }

    /// The same field with a summary row.
    func summarized(
        _ rank: Int, _ label: String, _ text: @escaping @Sendable (RunReport, String?) -> String?
    ) -> ReportField {
        var field = self
        field.summary = SummaryRow(rank: rank, label: label, text: text)
        return field
    }

    /// A JSON number with at most three decimals, `null` when not finite.
    static func number(_ value: Double) -> String {
        value.isFinite ? format3(value) : "null"
    }

    /// A JSON object of members already written as JSON.
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// The number formats of the summary table.
public enum SummaryFormat {
    /// `1234567` → `1,234,567`.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// A number with `places` decimals.
    public static func decimal(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
    }
}
