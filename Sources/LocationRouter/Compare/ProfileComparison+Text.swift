import GeofenceKit

extension ProfileComparison {
    /// This comparison as a table for humans (see `table(_:)`).
    public var text: String { Self.table([self]) }

    /// The comparisons as one table: a line that says what the columns mean, then per profile a row per
    /// transition kind and their total (counts, then the delay distribution in seconds), and rows of the
    /// `state` and `failed` counts of both sides. Empty input gives an empty string.
    public static func table(_ comparisons: [ProfileComparison]) -> String {
        guard let first = comparisons.first else { return "" }
        let base = first.baselineName
        let windows = Set(comparisons.map(\.matchWindow))
        let window = windows.count == 1 ? "match window \(plain(first.matchWindow)) s" : "match windows vary"
        var text = "Profiles vs \(base) (\(window)): missed = \(base) reported it, the profile did not; "
        text += "added = the profile reported it, \(base) did not; delayed/early = matched, reported later/earlier "
        text += "than \(base); delay = profile − \(base), in seconds; delivery = the profile's delivery delays "
        text += "(time − detectedAt).\n"

        let header = ["profile", "kind", base, "profile", "matched", "missed", "added", "delayed", "early",
                      "p50", "p90", "p99", "max", "mean"]
        var rows: [[String]] = []
        for comparison in comparisons {
            var name = comparison.profile
            func row(_ kind: String, _ cells: [String]) {
                rows.append([name, kind] + cells)
                name = ""
            }
            for (kind, tally) in [("enter", comparison.enter), ("exit", comparison.exit), ("dwell", comparison.dwell),
                                  ("total", comparison.total)] {
                let d = tally.delays
                row(kind, [tally.baseline, tally.profile, tally.matched, tally.missed, tally.added, tally.delayed, tally.early]
                    .map(thousands) + [d.p50, d.p90, d.p99, d.max, d.mean].map { $0.map(plain) ?? "–" })
            }
            row("state", [thousands(comparison.state.baseline), thousands(comparison.state.profile)])
            row("failed", [thousands(comparison.failed.baseline), thousands(comparison.failed.profile)])
            if comparison.visit.baseline + comparison.visit.profile > 0 {
                row("visit", [thousands(comparison.visit.baseline), thousands(comparison.visit.profile)])
            }
            if comparison.deliveredLate > 0 {
                // The profile's own delivery delays (detectedAt → time), part of the delays above.
                let d = comparison.delivery
                row("delivery", ["", thousands(comparison.deliveredLate), "", "", "", "", ""]
                    + [d.p50, d.p90, d.p99, d.max, d.mean].map { $0.map(plain) ?? "–" })
            }
            if comparison.failedByCode.count > 1 || comparison.failedByCode.first.map({ $0.code != 0 }) ?? false {
                for code in comparison.failedByCode {
                    row("  code \(code.code)", [thousands(code.baseline), thousands(code.profile)])
                }
            }
        }

        let widths = header.indices.map { column in
            rows.reduce(header[column].count) { Swift.max($0, $1.indices.contains(column) ? $1[column].count : 0) }
        }
        func line(_ cells: [String]) -> String {
            var line = ""
            for (column, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                line += column == 0 ? "" : "  "
                line += column < 2 ? cell + pad : pad + cell
            }
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }
        text += line(header)
        for row in rows { text += line(row) }
        return text
    }
}

/// `1234567` → `1,234,567`.
private func thousands(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = value < 0 ? "-" : ""
    for (i, digit) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return result
}

/// Seconds with at most three decimals, without a trailing `.0`: `20`, `0.25`, `-10`.
private func plain(_ value: Double) -> String {
    ProfileComparison.number(value)
}
