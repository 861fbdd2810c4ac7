import Foundation
import LocationRouter

extension Scenario {
    /// A fingerprint of everything in the scenario that decides the events, as 16 hex digits (FNV-1a 64 of its
    /// description): the partitions of one run share it, whatever their partition, shards, pace, outputs,
    /// thresholds or folders the input files are in. The seed is checked on its own.
    var fingerprint: String {
        var copy = self
        copy.partition = .whole
        copy.seed = 0
        copy.events = nil
        copy.report = nil
        copy.quiet = false
        copy.shards = nil
        copy.batchSize = 0
        copy.credits = 0
        copy.pace = .max
        copy.statePath = nil
        copy.snapshotInterval = 0
        copy.drainTimeout = InterruptHandler.defaultDrainDeadline
        copy.webhookURL = nil
        copy.webhook = WebhookSettings()
        copy.thresholds = []
        // Where truth is written and which service is driven do not change the events; what is scored does.
        copy.truth = TruthOptions()
        copy.truth.score = truth.score
        copy.truth.tolerance = truth.tolerance
        func name(_ path: String) -> String { (path as NSString).lastPathComponent }
        if case .gpx(let paths) = source { copy.source = .gpx(paths.map(name)) }
        copy.regionsFile = regionsFile.map(name)
        return String(format: "%016llx", Partition.stableHash(String(describing: copy)))
    }
}
