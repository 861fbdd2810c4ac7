import GeofenceKit
import GeofenceFormats

extension ReportPage {
    /// Profiles side by side: per profile and kind, events against `exact` (missed, added, delayed, early), the
    /// delay distribution, each profile's own figures, and a `score` object when the report has one.
    static func comparisonSection(_ report: JSONValue) -> String {
        let comparisons = report["comparison"]?.items ?? []
        let names = comparisons.map { $0["profile"]?.stringValue ?? "?" }
        var html = ""
        if !comparisons.isEmpty {
            let baseline = comparisons.first?["baseline"]?.stringValue ?? "exact"
            let measures = ["profile", "matched", "missed", "added", "delayed", "early", "p50", "p99"]
            html += "<table class=\"grid\" id=\"comparison-table\"><tr><th></th><th class=\"num\">\(PageText.escape(baseline))</th>"
            for name in names { html += "<th class=\"num profile-head\" colspan=\"\(measures.count)\">\(PageText.escape(name))</th>" }
            html += "</tr>\n<tr><th>kind</th><th class=\"num\">events</th>"
            for _ in names {
                for measure in measures {
                    let label = measure == "profile" ? "events" : ["p50", "p99"].contains(measure) ? "\(measure) s" : measure
                    html += "<th class=\"num\">\(label)</th>"
                }
            }
            html += "</tr>\n"
            for kind in ["enter", "exit", "dwell", "total"] {
                html += "<tr><td>\(kind)</td><td class=\"num\">\(PageText.grouped(comparisons.first?[kind]?.number("baseline") ?? 0))</td>"
                for comparison in comparisons {
                    for measure in measures {
                        let value = ["p50", "p99"].contains(measure)
                            ? delay(comparison, kind, measure) : PageText.grouped(comparison[kind]?.number(measure) ?? 0)
                        html += "<td class=\"num\">\(value)</td>"
                    }
                }
                html += "</tr>\n"
            }
            html += "</table>\n<div class=\"charts\">"
            let outcomes = ["missed", "added", "delayed", "early"]
            html += SVGBarChart(
                id: "comparison-counts", title: "Against \(baseline): all enter, exit and dwell events", xLabel: "",
                yLabel: "events", categories: outcomes,
                groups: comparisons.enumerated().map { i, c in (names[i], PageColours.cycled(i), outcomes.map { c["total"]?.number($0) ?? 0 }) }
            ).svg()
            let quantiles = ["min", "p50", "p90", "p99", "max", "mean"]
            html += SVGBarChart(
                id: "comparison-delays", title: "Delay of matched events (seconds)", xLabel: "", yLabel: "seconds",
                categories: quantiles,
                groups: comparisons.enumerated().map { i, c in
                    (names[i], PageColours.cycled(i), quantiles.map { c["total"]?["delaySeconds"]?[$0]?.doubleValue ?? 0 })
                }
            ).svg()
            html += "</div>\n"
        }
        if let profiles = report["profiles"]?.pairs, !profiles.isEmpty {
            html += "<h3>Each profile's run</h3><table class=\"grid\" id=\"profiles-table\"><tr><th>figure</th>"
            for profile in profiles { html += "<th class=\"num\">\(PageText.escape(profile.key))</th>" }
            html += "</tr>\n"
            let rows: [(String, (JSONValue) -> String)] = [
                ("updates", { PageText.grouped($0.number("updates")) }),
                ("events", { PageText.grouped($0.number("eventsEmitted")) }),
                ("enter", { PageText.grouped($0["events"]?.number("enter") ?? 0) }),
                ("exit", { PageText.grouped($0["events"]?.number("exit") ?? 0) }),
                ("dwell", { PageText.grouped($0["events"]?.number("dwell") ?? 0) }),
                ("failed", { PageText.grouped($0["events"]?.number("failed") ?? 0) }),
                ("updates/s", { PageText.grouped($0.number("updatesPerSecond")) }),
                ("latency p99 ms", { PageText.decimal($0["latencyMs"]?.number("p99") ?? 0, 3) }),
            ]
            for (name, value) in rows {
                html += "<tr><td>\(name)</td>" + profiles.map { "<td class=\"num\">\(value($0.value))</td>" }.joined() + "</tr>\n"
            }
            html += "</table>\n"
        }
        html += scoreTables(report, comparisons: comparisons, names: names)
        return section("comparison", comparisons.isEmpty ? "Score" : "Profiles compared", html)
    }

    /// A delay quantile of one kind in seconds, `–` when nothing matched.
    private static func delay(_ comparison: JSONValue, _ kind: String, _ quantile: String) -> String {
        guard let seconds = comparison[kind]?["delaySeconds"]?[quantile]?.doubleValue else { return "–" }
        return PageText.decimal(seconds, 1)
    }

    /// A `score` object (recall, precision, delays…) — each profile's in a scored comparison, else the top level's
    /// or each comparison's — as a table of its values: whatever its keys, so a report that adds some shows them.
    private static func scoreTables(_ report: JSONValue, comparisons: [JSONValue], names: [String]) -> String {
        var scores: [(name: String, score: JSONValue)] = (report["profiles"]?.pairs ?? []).compactMap { member in
            member.value["score"].map { (member.key, $0) }
        }
        if scores.isEmpty {
            for (i, comparison) in comparisons.enumerated() {
                if let score = comparison["score"] { scores.append((names[i], score)) }
            }
        }
        if scores.isEmpty, let score = report["score"] {
            // Per profile (an object of objects) or one object.
            let members = score.pairs
            if !members.isEmpty, members.allSatisfy({ !$0.value.pairs.isEmpty }) {
                scores = members.map { ($0.key, $0.value) }
            } else {
                scores = [("score", score)]
            }
        }
        guard !scores.isEmpty else { return "" }
        let columns = scores.map { ($0.name, flatten($0.score, prefix: "")) }
        var keys: [String] = []
        for (_, rows) in columns { for (key, _) in rows where !keys.contains(key) { keys.append(key) } }
        var html = "<h3>Score against the truth</h3><div class=\"charts\">"
        let rates = ["recall", "precision"] + ["enter", "exit", "dwell"].flatMap { ["byKind.\($0).recall", "byKind.\($0).precision"] }
        let shownRates = rates.filter { rate in scores.contains { Self.value($0.score, path: rate) != nil } }
        if !shownRates.isEmpty {
            html += SVGBarChart(
                id: "score-rates", title: "Recall and precision", xLabel: "", yLabel: "share",
                categories: shownRates.map { $0.replacingOccurrences(of: "byKind.", with: "") },
                groups: scores.enumerated().map { i, s in (s.name, PageColours.cycled(i), shownRates.map { Self.value(s.score, path: $0) ?? 0 }) }
            ).svg()
        }
        let quantiles = ["p50", "p90", "p99", "max", "mean"].filter { q in scores.contains { $0.score["latencySeconds"]?[q] != nil } }
        if !quantiles.isEmpty {
            html += SVGBarChart(
                id: "score-latency", title: "Delay against the truth (seconds)", xLabel: "", yLabel: "seconds",
                categories: quantiles,
                groups: scores.enumerated().map { i, s in (s.name, PageColours.cycled(i), quantiles.map { s.score["latencySeconds"]?[$0]?.doubleValue ?? 0 }) }
            ).svg()
        }
        html += "</div>\n<table class=\"grid\" id=\"score-table\"><tr><th>measure</th>"
        for (name, _) in columns { html += "<th class=\"num\">\(PageText.escape(name))</th>" }
        html += "</tr>\n"
        for key in keys.prefix(200) {
            html += "<tr><td>\(PageText.escape(key))</td>"
            for (_, rows) in columns { html += "<td class=\"num\">\(rows.first { $0.0 == key }?.1 ?? "")</td>" }
            html += "</tr>\n"
        }
        return html + "</table>\n"
    }

    /// The number at a dotted path (`byKind.enter.recall`) of a JSON object.
    private static func value(_ object: JSONValue, path: String) -> Double? {
        var current: JSONValue? = object
        for part in path.split(separator: ".") { current = current?[String(part)] }
        return current?.doubleValue
    }

    /// `a.b.c` → printable value, for every leaf of a JSON value.
    private static func flatten(_ value: JSONValue, prefix: String) -> [(String, String)] {
        switch value.kind {
        case .object(let members):
            return members.flatMap { flatten($0.value, prefix: prefix.isEmpty ? $0.key : prefix + "." + $0.key) }
        case .array(let items):
            return items.enumerated().flatMap { flatten($0.element, prefix: prefix + "[\($0.offset)]") }
        case .number(let number, _): return [(prefix, PageText.decimal(number, 4))]
        case .string(let text): return [(prefix, PageText.escape(text))]
        case .bool(let flag): return [(prefix, flag ? "true" : "false")]
        case .null: return [(prefix, "–")]
        }
    }
}
