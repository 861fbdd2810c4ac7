import Foundation
import LocationRouter

/// The options of `run` that measure events against the truth: `--ground-truth`, `--score`, `--score-tolerance`,
/// and the options that drive a geofence service under test (`--target`, `--listen`, …).
struct TruthOptions: Equatable {
    /// `--ground-truth PATH`: where the continuous-time truth of the input is written (NDJSON events).
    var groundTruthPath: String?
    /// `--score`: score the run's own events against the truth.
    var score = false
    /// `--score-tolerance SECONDS`: how late an event may be and still match (default 600).
    var tolerance = 600.0
    /// `--target URL`: the geofence service under test; `--listen HOST:PORT`: where its events arrive.
    var target: String?
    var listen: String?
    var targetBatch = 500
    var listenGrace = 10.0

    /// Whether the run needs the truth of its input.
    var needsTruth: Bool { groundTruthPath != nil || score || target != nil }
}
