import Foundation
import GeofenceKit

extension EventScore {
    /// The score as one JSON object (the `score` object of a run report, and `score --json`).
    public var json: String {
        func tally(_ t: Tally) -> String {
            "\"truth\":\(t.truth),\"events\":\(t.events),\"matched\":\(t.matched),\"recall\":\(Self.ratio(t.recall)),"
                + "\"precision\":\(Self.ratio(t.precision)),\"missed\":\(t.missed),\"spurious\":\(t.spurious),"
                + "\"duplicates\":\(t.duplicates)"
        }
        let latency = self.latency.named.map { "\"\($0.name)\":\($0.value.map(Self.ratio) ?? "null")" }
        // Only when events were delivered late, so scores of instant events keep their bytes.
        func delays(_ key: String, _ latency: Latency?) -> String {
            guard let latency else { return "" }
            let values = latency.named.map { "\"\($0.name)\":\($0.value.map(Self.ratio) ?? "null")" }
            return "\"\(key)\":{\(values.joined(separator: ","))},"
        }
        return "{" + tally(total) + ",\"ignored\":\(ignored),\"toleranceSeconds\":\(format3(tolerance)),"
            + "\"byKind\":{\"enter\":{\(tally(enter))},\"exit\":{\(tally(exit))}},"
            + "\"latencySeconds\":{\(latency.joined(separator: ","))},"
            + delays("deliverySeconds", delivery) + delays("detectionSeconds", detection)
            + "\"firstMissed\":[\(firstMissed.map(\.json).joined(separator: ","))],"
            + "\"firstSpurious\":[\(firstSpurious.map(\.json).joined(separator: ","))]}"
    }

    /// The score as a table for humans: counts per kind, then the latency quantiles, then the first missed and
    /// spurious events.
    public var text: String {
        var rows = [["kind", "truth", "events", "matched", "recall", "precision", "missed", "spurious", "duplicates"]]
        for (name, t) in [("enter", enter), ("exit", exit), ("total", total)] {
            rows.append([name, String(t.truth), String(t.events), String(t.matched), Self.percent(t.recall),
                         Self.percent(t.precision), String(t.missed), String(t.spurious), String(t.duplicates)])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = "Score against the truth (event at or after its truth event, within \(format3(tolerance)) s):\n"
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                line += column == 0 ? cell + pad : "  " + pad + cell
            }
            text += line + "\n"
        }
        if ignored > 0 { text += "ignored (dwell, state, failed and other kinds): \(ignored)\n" }
        let quantiles = latency.named.map { "\($0.name) \($0.value.map { Self.ratio($0) + " s" } ?? "–")" }
        text += "latency (event − truth): " + quantiles.joined(separator: ", ") + "\n"
        for (title, latency) in [("delivery (event − detectedAt)", delivery), ("detection (detectedAt − truth)", detection)] {
            guard let latency else { continue }
            text += title + ": " + latency.named.map { "\($0.name) \($0.value.map { Self.ratio($0) + " s" } ?? "–")" }
                .joined(separator: ", ") + "\n"
        }
        for (title, list, count) in [("missed", firstMissed, total.missed), ("spurious", firstSpurious, total.spurious)]
        where !list.isEmpty {
            text += "first \(list.count) of \(count) \(title):\n"
            for event in list { text += "  \(event.time.iso8601)  \(event.kind)  \(event.device)  \(event.region)\n" }
        }
        return text
    }

    /// A ratio or a number of seconds with up to six decimals (microseconds), no trailing zeros.
    static func ratio(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1e6).rounded() / 1e6
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(format: "%.6f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    private static func percent(_ value: Double) -> String {
        String(format: "%.2f %%", value * 100)
    }
}
