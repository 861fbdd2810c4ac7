/// Warnings about options that the rest of the run leaves with nothing to act on, said before it starts rather than
/// discovered in its output: a snapshot interval with no state file, a score tolerance with nothing scored, a
/// threshold on a score that is not computed.
extension Scenario {
    var idleOptionWarnings: [String] {
        var warnings: [String] = []
        if snapshotInterval > 0, statePath == nil {
            warnings.append(
                "--snapshot-interval (state.interval) has nothing to save without --state PATH (state.path)")
        }
        let scored = truth.score || truth.target != nil
        if truth.tolerance != TruthOptions().tolerance, !scored {
            warnings.append("--score-tolerance is used only with --score or --target")
        }
        let needingScore = thresholds.filter { $0.metric.path.hasPrefix("score.") }
        if !truth.score, let first = needingScore.first {
            let more = needingScore.count > 1 ? " (and \(needingScore.count - 1) more)" : ""
            warnings.append(
                "the threshold \(first)\(more) has no value without --score: it will not be met")
        }
        return warnings
    }
}
