import GeofenceKit

/// The report's `selection` object: how devices chose regions from the shared catalog.
public struct SelectionReport: Sendable, Equatable {
    public var strategy: SelectionStrategy
    public var summary: SelectionSummary

    public init(strategy: SelectionStrategy, summary: SelectionSummary) {
        self.strategy = strategy
        self.summary = summary
    }
}

extension RunReport {
    /// Sets `selection` and `coverage` from the shards' counts, for a run that chooses from a catalog or
    /// evaluates its coverage.
    mutating func addCatalogFigures(shards: [ShardSummary], configuration: SimulationConfiguration) {
        // Every partition generates the whole catalog, as it loads a whole region file: a merge must not add it up.
        if case .randomWalk(let walk) = configuration.source, walk.catalog != nil { origin.regionsShared = true }
        if configuration.selection.strategy == .nearest || configuration.coverage {
            selection = SelectionReport(
                strategy: configuration.selection.strategy,
                summary: shards.reduce(SelectionSummary()) { $0 + $1.selection })
        }
        if configuration.coverage {
            coverage = shards.reduce(CoverageSummary()) { $0 + ($1.coverage ?? CoverageSummary()) }
        }
    }

    /// `selection.refreshes`, … and `coverage.ratio`, …: the report's keys for a run with a shared catalog.
    static let selectionField: ReportField = {
        let counts: [(String, @Sendable (SelectionReport) -> Double)] = [
            ("refreshes", { Double($0.summary.refreshes) }), ("added", { Double($0.summary.added) }),
            ("removed", { Double($0.summary.removed) }), ("swapsPerDeviceHour", { $0.summary.swapsPerDeviceHour }),
        ]
        var field = ReportField("selection") { r in
            r.selection.map { selection in
                ReportField.object(
                    [("strategy", EventEncoder.jsonLiteral(selection.strategy.rawValue))]
                        + counts.map { ($0.0, ReportField.number($0.1(selection))) }
                        // What swapsPerDeviceHour divides by, so that a merge recomputes it from sums.
                        + [("deviceSeconds", ReportField.number(selection.summary.deviceSeconds))])
            }
        }
        field.metrics = [("selection", counts.map(\.0))]
        field.value = { r, path in
            let name = path.dropFirst("selection.".count)
            return r.selection.flatMap { selection in counts.first { $0.0 == name }.map { $0.1(selection) } }
        }
        // Said for `nearest` alone: under fileOrder (a run with --coverage) there is nothing to count.
        return field.summarized(104, "selection") { r, _ in
            guard let selection = r.selection, selection.strategy == .nearest else { return nil }
            let s = selection.summary
            return selectionLine(
                refreshes: s.refreshes, added: s.added, removed: s.removed, swapsPerDeviceHour: s.swapsPerDeviceHour)
        }
    }()

    static let coverageField: ReportField = {
        let values: [(String, @Sendable (CoverageSummary) -> Double)] = [
            ("transitions", { Double($0.transitions) }), ("caught", { Double($0.caught) }),
            ("missed", { Double($0.missed) }), ("late", { Double($0.late) }), ("ratio", { $0.ratio }),
            ("unmatched", { Double($0.unmatched) }),
        ]
        var field = ReportField("coverage") { r in
            r.coverage.map { coverage in
                ReportField.object(values.map { name, value in
                    (name, name == "ratio" ? String((value(coverage) * 1e6).rounded() / 1e6) : String(Int(value(coverage))))
                })
            }
        }
        field.metrics = [("coverage", values.map(\.0))]
        field.value = { r, path in
            let name = path.dropFirst("coverage.".count)
            return r.coverage.flatMap { coverage in values.first { $0.0 == name }.map { $0.1(coverage) } }
        }
        // A ratio, which a threshold such as `coverage.ratio > 0.98` sees unrounded.
        field.exact = true
        return field.summarized(105, "coverage") { r, _ in
            r.coverage.map { coverageLine(ratio: $0.ratio, transitions: $0.transitions, late: $0.late, missed: $0.missed) }
        }
    }()

    /// The summary's `selection` line under `nearest`, on standard error and on the report's page.
    public static func selectionLine(refreshes: Int, added: Int, removed: Int, swapsPerDeviceHour: Double) -> String {
        "nearest · \(SummaryFormat.grouped(refreshes)) refreshes · \(SummaryFormat.grouped(added)) added · "
            + "\(SummaryFormat.grouped(removed)) removed · \(SummaryFormat.decimal(swapsPerDeviceHour, 1)) swaps per device-hour"
    }

    /// The summary's `coverage` line, on standard error and on the report's page.
    public static func coverageLine(ratio: Double, transitions: Int, late: Int, missed: Int) -> String {
        "\(SummaryFormat.decimal(ratio * 100, 2)) % of \(SummaryFormat.grouped(transitions)) catalog "
            + "transitions reported (\(SummaryFormat.grouped(late)) late), \(SummaryFormat.grouped(missed)) missed"
    }
}
