import GeofenceKit

/// Warnings about options that the rest of the run leaves with nothing to act on, said before it starts rather than
/// discovered in its output: a snapshot interval with no state file, a score tolerance with nothing scored, a
/// threshold on a score that is not computed, refresh options without `nearest`, a webhook or an events file beside
/// `--compare-profiles`, and first the options of another source (``sourceOptionWarnings``).
extension Scenario {
    var idleOptionWarnings: [String] {
        var warnings = sourceOptionWarnings
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
        if selection.strategy != .nearest {
            let given = [
                ("--refresh-distance", selection.refreshDistance != SelectionSettings().refreshDistance),
                ("--refresh-interval", selection.refreshInterval != nil),
                ("--proximity-radius", selection.proximityRadius != nil),
            ].filter(\.1).map(\.0)
            if let first = given.first {
                let options = given.count > 1 ? given.dropLast().joined(separator: ", ") + " and " + given.last! : first
                warnings.append(
                    "\(options) \(given.count > 1 ? "are" : "is") used only with --selection nearest "
                        + "(monitor.selection); this run's selection is \(selection.strategy.rawValue)")
            }
        }
        if !compareProfiles.isEmpty {
            if webhookURL != nil {
                warnings.append(
                    "--webhook is not called under --compare-profiles: the profiles' events are compared in the "
                        + "report (run one profile to deliver its events)")
            }
            if let events, events != Self.defaultEventsPath {
                warnings.append(
                    "--events \(events) is not written under --compare-profiles: the profiles' events are compared "
                        + "in the report")
            }
        }
        return warnings
    }
}
