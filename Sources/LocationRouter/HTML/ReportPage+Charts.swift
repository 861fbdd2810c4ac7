import GeofenceKit
import GeofenceFormats

extension ReportPage {
    /// Time series per wall-clock second and per simulated minute: updates, events by kind, latency, waits.
    static func timelineSection(_ report: JSONValue) -> String {
        guard let timeline = report["timeline"] else {
            return section("timeline", "Over time", "<p class=\"note\">This report has no time series.</p>")
        }
        var content = ""
        if let wall = timeline["wallClock"] {
            content += "<h3>Per wall-clock second</h3>"
                + charts(
                    wall, idPrefix: "wall", axis: "wall-clock seconds since the start", perSecondOfWall: true,
                    runSeconds: report["wallSeconds"]?.doubleValue)
        }
        if let simulated = timeline["simulated"] {
            let start = simulated["start"]?.stringValue.map { " after \($0)" } ?? ""
            content += "<h3>Per simulated minute</h3>" + charts(simulated, idPrefix: "sim", axis: "simulated minutes\(start)", perSecondOfWall: false)
        }
        return section("timeline", "Over time", content)
    }

    /// What each bucket's count is divided by: its length in seconds of wall time, or in minutes of simulated time —
    /// the whole bucket's, but for the last wall-clock one, which lasted only until the run ended (`runSeconds`).
    static func rateDivisors(offsets: [Double], bucket: Double, perSecondOfWall: Bool, runSeconds: Double?) -> [Double] {
        var divisors = [Double](repeating: perSecondOfWall ? bucket : bucket / 60, count: offsets.count)
        if perSecondOfWall, let runSeconds, let last = offsets.last, runSeconds > last {
            divisors[divisors.count - 1] = min(bucket, max(runSeconds - last, 1e-3))
        }
        return divisors
    }

    /// - Parameter runSeconds: for wall-clock buckets, when the run ended: its last bucket lasted only until then, and
    ///   its rates are per second of that part (a run of 0.3 s made 0.3 s of updates, not a second's).
    private static func charts(
        _ series: JSONValue, idPrefix: String, axis: String, perSecondOfWall: Bool, runSeconds: Double? = nil
    ) -> String {
        let bucket = max(series.number("bucketSeconds"), 1e-9)
        let offsets = series["offsetSeconds"]?.numbers.map { $0 ?? 0 } ?? []
        // Wall-clock buckets are shown in seconds, simulated ones in minutes.
        let x = offsets.map { perSecondOfWall ? $0 : $0 / 60 }
        guard !x.isEmpty else { return "<p class=\"note\">Nothing was recorded.</p>" }
        let unit = perSecondOfWall ? "second" : "minute"
        let bucketNote = perSecondOfWall ? (bucket == 1 ? "" : " (buckets of \(PageText.decimal(bucket, 0)) s)")
            : (bucket == 60 ? "" : " (buckets of \(PageText.duration(bucket)))")
        // Rates per second of wall time, counts per bucket for simulated time.
        let divisors = rateDivisors(offsets: offsets, bucket: bucket, perSecondOfWall: perSecondOfWall, runSeconds: runSeconds)
        func rate(_ values: [Double?]) -> [Double?] {
            zip(values, divisors).map { value, divisor in value.map { $0 / divisor } }
        }
        let updates = SVGLineChart(
            id: "\(idPrefix)-updates", title: "Updates per \(unit)\(bucketNote)", xLabel: axis, yLabel: "updates / \(unit)",
            x: x, series: [.init(name: "updates", colour: "#1565c0", values: rate(series["updates"]?.numbers ?? []))])
        let kinds = (series["events"]?.pairs ?? []).filter { member in member.value.numbers.contains { ($0 ?? 0) > 0 } }
        let events = SVGLineChart(
            id: "\(idPrefix)-events", title: "Events per \(unit), by kind\(bucketNote)", xLabel: axis, yLabel: "events / \(unit)",
            x: x, series: kinds.map { .init(name: $0.key, colour: PageColours.event($0.key), values: rate($0.value.numbers)) })
        let latency = SVGLineChart(
            id: "\(idPrefix)-latency", title: "Latency p50 and p99 (ms)", xLabel: axis, yLabel: "milliseconds",
            x: x,
            series: [
                .init(name: "p50", colour: "#2e7d32", values: series["latencyP50Ms"]?.numbers ?? []),
                .init(name: "p99", colour: "#c62828", values: series["latencyP99Ms"]?.numbers ?? []),
            ])
        var html = "<div class=\"charts\">"
        if perSecondOfWall {
            html += updates.svg() + events.svg()
        } else {
            // Simulated minutes as bars: a partial last minute (a walk's final sample) reads as what it is.
            let minutes = x.map { PageText.compact($0) }
            html += SVGBarChart(
                id: updates.id, title: updates.title, xLabel: axis, yLabel: updates.yLabel, categories: minutes,
                groups: updates.series.map { ($0.name, $0.colour, $0.values.map { $0 ?? 0 }) }
            ).svg()
            html += SVGBarChart(
                id: events.id, title: events.title, xLabel: axis, yLabel: events.yLabel, categories: minutes,
                groups: events.series.map { ($0.name, $0.colour, $0.values.map { $0 ?? 0 }) }
            ).svg()
        }
        html += latency.svg()
        if perSecondOfWall {
            let waits = SVGLineChart(
                id: "\(idPrefix)-waits", title: "Back-pressure waits per second", xLabel: axis, yLabel: "waits / second",
                x: x, series: [.init(name: "waits", colour: "#6a1b9a", values: rate(series["backPressureWaits"]?.numbers ?? []))])
            html += waits.svg()
        }
        return html + "</div>\n"
    }

    /// The latency distribution: one bar per bucket (about ±10 % wide), from the sample entering the pipeline
    /// to its event reaching the sink.
    static func latencySection(_ report: JSONValue) -> String {
        guard let histogram = report["latencyHistogram"] else {
            return section("latency", "Latency", "<p class=\"note\">This report has no latency histogram.</p>")
        }
        let lower = histogram["lowerMs"]?.numbers.map { $0 ?? 0 } ?? []
        let upper = histogram["upperMs"]?.numbers.map { $0 ?? 0 } ?? []
        let counts = histogram["counts"]?.numbers.map { $0 ?? 0 } ?? []
        guard !counts.isEmpty, lower.count == counts.count, upper.count == counts.count else {
            return section("latency", "Latency", "<p class=\"note\">No event was dispatched, so no latency was measured.</p>")
        }
        let labels = lower.map { PageText.compact($0) }
        let chart = SVGBarChart(
            id: "latency-histogram", title: "Events by latency (ms, lower bound of each bucket)", xLabel: "milliseconds",
            yLabel: "events", categories: labels, groups: [("events", "#1565c0", counts)], width: 1200, height: 260)
        let percentiles = (report["latencyMs"]?.pairs ?? []).map {
            "\($0.key == "p999" ? "p99.9" : $0.key) \(PageText.decimal($0.value.doubleValue ?? .nan, 3)) ms"
        }.joined(separator: " · ")
        return section(
            "latency", "Latency",
            chart.svg() + "<p class=\"note\">From a sample entering the pipeline to its event being handed to the sink: \(percentiles).</p>")
    }
}
