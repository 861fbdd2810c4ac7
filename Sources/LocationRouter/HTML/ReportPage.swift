import GeofenceKit
import GeofenceFormats

/// The report as one self-contained HTML page (`--html`): a summary with the thresholds, a map of regions and
/// sampled tracks, time series per wall-clock second and per simulated minute, the latency histogram and, for
/// profile comparisons, the profiles side by side.
///
/// The page is a pure function of the JSON report (``RunReport/json``, with the comparison's keys when there
/// are any), so a saved report renders the same page later (`location-router report FILE --html PATH`). It is
/// well-formed XHTML with inline CSS and SVG: no script, no font, no image and no link to fetch, so it reads
/// offline and as an attachment.
public enum ReportPage {
    /// The page of a JSON report's text.
    /// - Throws: ``InputError`` when the text is not JSON or not a report object.
    public static func render(reportJSON text: String, title: String? = nil) throws(InputError) -> String {
        let value = try JSONParser.parse(text)
        guard case .object = value.kind, value["updates"] != nil || value["comparison"] != nil else {
            throw InputError("not a location-router report (no \"updates\" key)", line: 1, column: 1)
        }
        return render(report: value, title: title)
    }

    /// The page of a parsed JSON report.
    public static func render(report: JSONValue, title: String? = nil) -> String {
        let heading = title ?? "LocationRouter report"
        var body = header(report, heading)
        body += summarySection(report)
        if report["comparison"] != nil || report["score"] != nil { body += comparisonSection(report) }
        body += mapSection(report)
        body += timelineSection(report)
        body += latencySection(report)
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>\(PageText.escape(heading))</title>
            <style>\(stylesheet)</style></head>
            <body>
            \(body)<footer>Written by location-router \(PageText.escape(report["version"]?.stringValue ?? "")). \
            Self-contained: inline CSS and SVG, nothing fetched.</footer>
            </body></html>

            """
    }

    static func section(_ id: String, _ title: String, _ content: String) -> String {
        "<section id=\"\(id)\"><h2>\(PageText.escape(title))</h2>\n\(content)</section>\n"
    }

    private static func header(_ report: JSONValue, _ heading: String) -> String {
        let profile = report["profile"]?.stringValue ?? "?"
        let seed = report["seed"]?.numberText ?? "?"
        var badges = ""
        if report["interrupted"]?.boolValue == true { badges += " <span class=\"badge warn\">interrupted</span>" }
        if let thresholds = report["thresholds"]?.items, !thresholds.isEmpty {
            let failed = thresholds.filter { $0["passed"]?.boolValue == false }.count
            badges += failed == 0
                ? " <span class=\"badge pass\">thresholds passed</span>"
                : " <span class=\"badge fail\">\(failed) of \(thresholds.count) thresholds failed</span>"
        }
        return """
            <header><h1 id="title">\(PageText.escape(heading))\(badges)</h1>
            <p class="subtitle">profile \(PageText.escape(profile)) · seed \(PageText.escape(seed)) · \
            \(PageText.grouped(report.number("shards"))) shards · \(PageText.grouped(report.number("devices"))) devices · \
            \(PageText.duration(report.number("simulatedSeconds"))) simulated in \(PageText.decimal(report.number("wallSeconds"), 2)) s</p>
            </header>\n
            """
    }

    /// What the summary table on standard error shows, and the thresholds in colour.
    static func summarySection(_ report: JSONValue) -> String {
        func counts(_ key: String) -> String {
            (report[key]?.pairs ?? []).filter { ($0.value.doubleValue ?? 0) > 0 }
                .map { "\(PageText.escape($0.key)) \(PageText.grouped($0.value.doubleValue ?? 0))" }.joined(separator: " · ")
        }
        let latency = (report["latencyMs"]?.pairs ?? []).map {
            "\($0.key == "p999" ? "p99.9" : $0.key) \(PageText.decimal($0.value.doubleValue ?? .nan, 3))"
        }.joined(separator: " · ")
        let kinds = ["enter", "exit", "dwell", "state", "failed"].map {
            "<span class=\"kind\" style=\"color:\(PageColours.event($0))\">\($0)</span> \(PageText.grouped(report["events"]?.number($0) ?? 0))"
        }.joined(separator: " · ")
        var rows: [(String, String)] = [
            ("devices", PageText.grouped(report.number("devices"))),
            ("regions", "\(PageText.grouped(report.number("regions"))) (\(PageText.grouped(report.number("monitoredRegions"))) monitored)"),
            ("updates", "\(PageText.grouped(report.number("updates"))) in \(PageText.decimal(report.number("wallSeconds"), 2)) s, \(PageText.decimal(report.number("simulatedSeconds"), 0)) s simulated"),
            ("throughput", "\(PageText.grouped(report.number("updatesPerSecond"))) updates/s, \(PageText.grouped(report.number("eventsPerSecond"))) events/s"),
            ("events", "\(PageText.grouped(report.number("eventsEmitted"))) — \(kinds)"),
            ("delivered", "\(PageText.grouped(report.number("notificationsDelivered"))), dropped \(PageText.grouped(report.number("dropped")))"),
            ("rejected", PageText.grouped((report["rejected"]?.pairs ?? []).reduce(0) { $0 + ($1.value.doubleValue ?? 0) }) + (counts("rejected").isEmpty ? "" : " — " + counts("rejected"))),
            ("latency ms", latency),
            ("back-pressure", "\(PageText.grouped(report.number("backPressureWaits"))) waits; at most \(PageText.grouped(report.number("peakBatchesInFlight"))) of \(PageText.grouped(report.number("batchCapacity"))) batches in flight"),
            ("peak memory", PageText.decimal(report.number("peakResidentBytes") / 1_048_576, 1) + " MiB"),
        ]
        if !counts("failed").isEmpty { rows.insert(("failed", counts("failed")), at: 5) }
        if report["suppressed"]?.number("background") ?? 0 > 0 {
            rows.insert(("suppressed", PageText.grouped(report["suppressed"]?.number("background") ?? 0) + " in the background (whenInUse)"), at: 5)
        }
        // In the words of standard error's lines, before peak memory as there. A count too large for an `Int` (a
        // report edited by hand) reads as 0 rather than stopping the page.
        func count(_ object: JSONValue, _ key: String) -> Int { Int(exactly: object.number(key).rounded()) ?? 0 }
        var catalogRows: [(String, String)] = []
        if let selection = report["selection"], selection["strategy"]?.stringValue == "nearest" {
            let line = RunReport.selectionLine(
                refreshes: count(selection, "refreshes"), added: count(selection, "added"),
                removed: count(selection, "removed"), swapsPerDeviceHour: selection.number("swapsPerDeviceHour"))
            catalogRows.append(("selection", PageText.escape(line)))
        }
        if let coverage = report["coverage"] {
            let line = RunReport.coverageLine(
                ratio: coverage.number("ratio"), transitions: count(coverage, "transitions"),
                late: count(coverage, "late"), missed: count(coverage, "missed"))
            catalogRows.append(("coverage", PageText.escape(line)))
        }
        rows.insert(contentsOf: catalogRows, at: rows.firstIndex { $0.0 == "peak memory" } ?? rows.count)
        if let webhook = report["webhook"] {
            rows.append(("webhook", "\(PageText.grouped(webhook.number("delivered"))) delivered in \(PageText.grouped(webhook.number("deliveredRequests"))) requests, \(PageText.grouped(webhook.number("retries"))) retries, \(PageText.grouped(webhook.number("deadLettered"))) dead-lettered"))
        }
        if let accounting = report["accounting"] {
            let balanced = accounting["balanced"]?.boolValue == true
            rows.append(("accounting", balanced ? "<span class=\"pass-text\">balanced</span>" : "<span class=\"fail-text\">not balanced</span>"))
        }
        var table = "<table class=\"summary\">"
        for (name, value) in rows { table += "<tr><th>\(PageText.escape(name))</th><td>\(value)</td></tr>\n" }
        table += "</table>\n"
        if let thresholds = report["thresholds"]?.items, !thresholds.isEmpty {
            table += "<h3>Thresholds</h3><table class=\"thresholds\"><tr><th>condition</th><th>value</th><th>result</th></tr>\n"
            for threshold in thresholds {
                let passed = threshold["passed"]?.boolValue == true
                table += "<tr class=\"\(passed ? "pass" : "fail")\"><td><code>\(PageText.escape(threshold["expression"]?.stringValue ?? ""))</code></td>"
                table += "<td>\(PageText.decimal(threshold["value"]?.doubleValue ?? .nan, 3))</td><td>\(passed ? "passed" : "FAILED")</td></tr>\n"
            }
            table += "</table>\n"
        }
        return section("summary", "Summary", table)
    }
}
