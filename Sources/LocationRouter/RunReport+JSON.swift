import GeofenceKit

extension RunReport {
    /// The JSON report (`--report`): one object, keys in a fixed order (``RunReport/fields``), as the README lists them.
    public var json: String { ReportField.object(jsonMembers) + "\n" }

    /// The report's members, in report order, each already written as JSON: a report can be extended as a
    /// value (the compare mode's `comparison` and `profiles`) before it is written.
    public var jsonMembers: [(key: String, json: String)] {
        Self.fields.flatMap { $0.json(self) }.map { (key: $0.0, json: $0.1) }
    }

    /// A JSON object of members already written as JSON, as the report writes them.
    public static func jsonObject(_ members: [(key: String, json: String)]) -> String {
        ReportField.object(members.map { ($0.key, $0.json) }) + "\n"
    }

    /// The summary table's rows (label, text) for this report, in the summary's order; `eventsDestination` is
    /// where the events went (`nil`: counted only, `-`: standard output, else a path).
    public func summaryRows(eventsDestination: String?) -> [(label: String, text: String)] {
        Self.fields.compactMap(\.summary).sorted { $0.rank < $1.rank }.compactMap { row in
            row.text(self, eventsDestination).map { (label: row.label, text: $0) }
        }
    }
}

/// A number with at most three decimals, without a trailing `.0` on whole numbers.
func format3(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return String(rounded)
}

extension InputError {
    /// `{"file":…,"line":…,"column":…,"message":"field: message"}`, unknown parts as `null`.
    public func json(includingFile: Bool) -> String {
        var text = "{"
        if includingFile { text += "\"file\":\(file.map(EventEncoder.jsonLiteral) ?? "null")," }
        text += "\"line\":\(line.map(String.init) ?? "null"),\"column\":\(column.map(String.init) ?? "null"),"
        text += "\"message\":\(EventEncoder.jsonLiteral(field.map { "\($0): \(message)" } ?? message))}"
        return text
    }
}
