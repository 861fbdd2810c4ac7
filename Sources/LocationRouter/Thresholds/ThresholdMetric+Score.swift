/// The metrics of a run's `score` and `target` objects (`score.recall`, `target.latencyMs.p99`, …).
extension ThresholdMetric {
    static let scoreGroups: [(prefix: String, members: [String])] = [
        ("target", TargetStatistics.countNames),
        ("target.score", EventScore.metricPaths),
        ("target.latencyMs", TargetStatistics.latencyNames),
    ]

    /// The value of a `score.…` or `target.…` metric, unrounded; `nil` for any other path, or when the run has no
    /// such object (then ``value(in:)`` finds nothing either).
    static func scoreValue(_ path: String, in report: RunReport) -> Double? {
        if path.hasPrefix("score.") { return report.score?.value(at: String(path.dropFirst("score.".count))) }
        guard path.hasPrefix("target."), let target = report.target else { return nil }
        return target.value(at: String(path.dropFirst("target.".count)))
    }
}
